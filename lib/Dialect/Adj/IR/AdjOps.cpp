//===- AdjOps.cpp - Structure ops of the adj dialect ----------------------===//
//
// Functions, closures, calls, tuples, control flow, tensor creation and the
// environment ops: their custom syntax, verifiers and folders. The shape
// rules of the tensor primitives live in TensorOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "ShapeRules.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace adjoint::adj;

#include "adjoint/Dialect/Adj/IR/AdjEnums.cpp.inc"

/// Checks that `actual` values can flow where `expected` types are declared.
static LogicalResult verifyTypesMatch(Operation *op, StringRef what,
                                      TypeRange actual, TypeRange expected) {
  if (actual.size() != expected.size())
    return op->emitOpError() << what << ": expected " << expected.size()
                             << " values, got " << actual.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(actual, expected))) {
    auto [a, e] = pair;
    if (!areCompatible(a, e))
      return op->emitOpError() << what << ": value #" << i << " has type "
                               << a << " but " << e << " is expected";
  }
  return success();
}

/// Whether `type` is a rank-0 tensor of `elementType`, or !adj.any.
static bool isScalarOf(Type type, Type elementType) {
  if (isa<AnyType>(type))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 0 &&
         tensor.getElementType() == elementType;
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult FuncOp::verify() {
  if (getBody().empty())
    return emitOpError("must have a body (declarations are not supported)");
  if (!getBody().hasOneBlock())
    return emitOpError("must have exactly one block");
  Block &entry = getBody().front();
  if (failed(verifyTypesMatch(*this, "entry block arguments",
                              entry.getArgumentTypes(), getArgumentTypes())))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// LambdaOp
//===----------------------------------------------------------------------===//

ParseResult LambdaOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseArrow())
    return failure();
  if (succeeded(parser.parseOptionalLParen())) {
    if (failed(parser.parseOptionalRParen())) {
      if (parser.parseTypeList(resultTypes) || parser.parseRParen())
        return failure();
    }
  } else {
    Type single;
    if (parser.parseType(single))
      return failure();
    resultTypes.push_back(single);
  }
  SmallVector<Type> argTypes;
  for (auto &arg : args)
    argTypes.push_back(arg.type);
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  if (body->empty())
    return parser.emitError(parser.getNameLoc(), "expected a non-empty body");
  result.addTypes(FnType::get(parser.getContext(), argTypes, resultTypes));
  return success();
}

void LambdaOp::print(OpAsmPrinter &p) {
  p << " (";
  Block &entry = getBody().front();
  llvm::interleaveComma(entry.getArguments(), p, [&](BlockArgument arg) {
    p.printRegionArgument(arg);
  });
  p << ") -> ";
  ArrayRef<Type> results = getFnType().getResults();
  if (results.size() == 1 && !isa<FunctionType>(results.front())) {
    p << results.front();
  } else {
    p << '(';
    llvm::interleaveComma(results, p);
    p << ')';
  }
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  p.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult LambdaOp::verifyRegions() {
  // The custom form spells the inputs only once, as the block arguments, so
  // they must be exactly the inputs of the closure's type (not merely
  // compatible with them) for the printed form to parse back to this op.
  TypeRange args = getBody().front().getArgumentTypes();
  ArrayRef<Type> inputs = getFnType().getInputs();
  if (args.size() != inputs.size())
    return emitOpError() << "block arguments: expected " << inputs.size()
                         << " values, got " << args.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(args, inputs)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError() << "block argument #" << i << " has type "
                           << std::get<0>(pair) << " but the closure type "
                           << "has " << std::get<1>(pair);
  return success();
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  Operation *parent = (*this)->getParentOp();
  ArrayRef<Type> expected;
  if (auto func = dyn_cast<FuncOp>(parent))
    expected = func.getResultTypes();
  else
    expected = cast<LambdaOp>(parent).getFnType().getResults();
  return verifyTypesMatch(*this, "returned values", getOperandTypes(),
                          expected);
}

//===----------------------------------------------------------------------===//
// FuncRefOp and CallOp
//===----------------------------------------------------------------------===//

LogicalResult
FuncRefOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto func =
      symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!func)
    return emitOpError() << "'" << getCallee()
                         << "' does not name an adj.func";
  auto fnType = FnType::get(getContext(), func.getFunctionType());
  if (!areCompatible(fnType, getType()))
    return emitOpError() << "has type " << getType() << " but '"
                         << getCallee() << "' has type " << fnType;
  return success();
}

OpFoldResult FuncRefOp::fold(FoldAdaptor) { return getCalleeAttr(); }

LogicalResult
ClosureOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto func =
      symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!func)
    return emitOpError() << "'" << getCallee()
                         << "' does not name an adj.func";
  // @f: (C..., A...) -> (R...) with captures C... makes (A...) -> (R...).
  ArrayRef<Type> params = func.getArgumentTypes();
  size_t numCaptures = getCaptures().size();
  if (params.size() < numCaptures)
    return emitOpError() << "captures " << numCaptures << " values but '"
                         << getCallee() << "' takes only " << params.size()
                         << " parameters";
  if (failed(verifyTypesMatch(*this, "captured values",
                              getCaptures().getTypes(),
                              params.take_front(numCaptures))))
    return failure();
  auto expected = FnType::get(getContext(), params.drop_front(numCaptures),
                              func.getResultTypes());
  if (!areCompatible(expected, getType()))
    return emitOpError() << "has type " << getType() << " but '"
                         << getCallee() << "' with " << numCaptures
                         << " captured values has type " << expected;
  return success();
}

ParseResult CallOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand callee;
  SmallVector<OpAsmParser::UnresolvedOperand> args;
  Type calleeType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperand(callee) ||
      parser.parseOperandList(args, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(calleeType))
    return failure();
  SmallVector<Type> argTypes, resultTypes;
  auto fnType = dyn_cast<FnType>(calleeType);
  // An untyped callee spells out the argument and result types, and so does a
  // typed one that is applied to values of merely compatible types.
  Type explicitSig;
  SMLoc sigLoc = parser.getCurrentLocation();
  if (fnType) {
    OptionalParseResult parsed = parser.parseOptionalType(explicitSig);
    if (parsed.has_value() && failed(*parsed))
      return failure();
  } else if (isa<AnyType>(calleeType) && parser.parseType(explicitSig)) {
    return failure();
  }
  if (fnType && !explicitSig) {
    llvm::append_range(argTypes, fnType.getInputs());
    llvm::append_range(resultTypes, fnType.getResults());
  } else if (explicitSig) {
    auto sig = dyn_cast<FunctionType>(explicitSig);
    if (!sig)
      return parser.emitError(sigLoc, "expected a function type, got ")
             << explicitSig;
    llvm::append_range(argTypes, sig.getInputs());
    llvm::append_range(resultTypes, sig.getResults());
  } else {
    return parser.emitError(loc, "callee must be !adj.fn or !adj.any, got ")
           << calleeType;
  }
  if (parser.resolveOperand(callee, calleeType, result.operands) ||
      parser.resolveOperands(args, argTypes, loc, result.operands))
    return failure();
  result.addTypes(resultTypes);
  return success();
}

void CallOp::print(OpAsmPrinter &p) {
  p << ' ' << getCallee() << '(' << getArgs() << ')';
  p.printOptionalAttrDict((*this)->getAttrs());
  p << " : " << getCallee().getType();
  auto fnType = dyn_cast<FnType>(getCallee().getType());
  if (!fnType || TypeRange(getArgs().getTypes()) != fnType.getInputs() ||
      TypeRange(getResultTypes()) != fnType.getResults())
    p << ' '
      << FunctionType::get(getContext(), getArgs().getTypes(),
                           getResultTypes());
}

LogicalResult CallOp::verify() {
  auto fnType = dyn_cast<FnType>(getCallee().getType());
  if (!fnType)
    return success();
  if (failed(verifyTypesMatch(*this, "arguments", getArgs().getTypes(),
                              fnType.getInputs())))
    return failure();
  return verifyTypesMatch(*this, "results", getResultTypes(),
                          fnType.getResults());
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::inferReturnTypes(MLIRContext *ctx,
                                        std::optional<Location>,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  SmallVector<Type> types(adaptor.getElements().getTypes());
  results.push_back(TupleType::get(ctx, types));
  return success();
}

OpFoldResult TupleOp::fold(FoldAdaptor) {
  // tuple(get(t, 0), ..., get(t, n-1)) == t when t has n elements.
  Value source;
  for (auto [i, element] : llvm::enumerate(getElements())) {
    auto get = element.getDefiningOp<GetOp>();
    if (!get || get.getIndex() != static_cast<int64_t>(i) ||
        (source && get.getTuple() != source))
      return {};
    source = get.getTuple();
  }
  if (source && source.getType() == getType())
    return source;
  return {};
}

LogicalResult GetOp::inferReturnTypes(MLIRContext *ctx,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  Type type = adaptor.getTuple().getType();
  if (isa<AnyType>(type)) {
    results.push_back(AnyType::get(ctx));
    return success();
  }
  // The custom parser infers before the operand constraint is verified.
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return emitOptionalError(loc, "adj.get: expected a tuple or !adj.any, got ",
                             type);
  int64_t index = adaptor.getIndex();
  if (index < 0 || index >= static_cast<int64_t>(tuple.size()))
    return emitOptionalError(loc, "adj.get: index ", index,
                             " is out of range for ", type);
  results.push_back(tuple.getTypes()[index]);
  return success();
}

OpFoldResult GetOp::fold(FoldAdaptor) {
  if (auto tuple = getTuple().getDefiningOp<TupleOp>())
    return tuple.getElements()[getIndex()];
  return {};
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

/// The yield that ends `region`, or null. The op verifiers run before the
/// blocks of their regions are checked for terminators, so a block may still
/// be empty here.
static YieldOp getYield(Region &region) {
  if (region.empty() || region.front().empty())
    return nullptr;
  return dyn_cast<YieldOp>(&region.front().back());
}

LogicalResult IfOp::verify() {
  Type i1 = IntegerType::get(getContext(), 1);
  if (!isScalarOf(getCondition().getType(), i1))
    return emitOpError("condition must be tensor<i1>, got ")
           << getCondition().getType();
  for (Region *region : {&getThenRegion(), &getElseRegion()}) {
    YieldOp yield = getYield(*region);
    if (!yield)
      return emitOpError("regions must end with adj.yield");
    if (failed(verifyTypesMatch(*this, "yielded values",
                                yield.getOperandTypes(), getResultTypes())))
      return failure();
  }
  return success();
}

LogicalResult ForOp::verify() {
  Type i64 = IntegerType::get(getContext(), 64);
  for (Value bound : {getLowerBound(), getUpperBound(), getStep()})
    if (!isScalarOf(bound.getType(), i64))
      return emitOpError("bounds and step must be tensor<i64>, got ")
             << bound.getType();
  if (failed(verifyTypesMatch(*this, "initial values", getInits().getTypes(),
                              getResultTypes())))
    return failure();
  Block &body = getBody().front();
  if (body.getNumArguments() != getInits().size() + 1)
    return emitOpError("body must take the induction variable and ")
           << getInits().size() << " carried values, got "
           << body.getNumArguments() << " block arguments";
  if (!isScalarOf(body.getArgument(0).getType(), i64))
    return emitOpError("induction variable must be tensor<i64>");
  if (failed(verifyTypesMatch(*this, "body arguments",
                              TypeRange(body.getArgumentTypes()).drop_front(),
                              getResultTypes())))
    return failure();
  YieldOp yield = getYield(getBody());
  if (!yield)
    return emitOpError("body must end with adj.yield");
  return verifyTypesMatch(*this, "yielded values", yield.getOperandTypes(),
                          getResultTypes());
}

LogicalResult WhileOp::verify() {
  if (failed(verifyTypesMatch(*this, "initial values", getInits().getTypes(),
                              getResultTypes())))
    return failure();
  for (Region *region : {&getCond(), &getBody()}) {
    if (failed(verifyTypesMatch(*this, "region arguments",
                                region->front().getArgumentTypes(),
                                getResultTypes())))
      return failure();
    if (!getYield(*region))
      return emitOpError("regions must end with adj.yield");
  }
  YieldOp condYield = getYield(getCond());
  if (condYield.getNumOperands() != 1 ||
      !isScalarOf(condYield.getOperand(0).getType(),
                  IntegerType::get(getContext(), 1)))
    return emitOpError("cond region must yield one tensor<i1>");
  return verifyTypesMatch(*this, "body yields",
                          getYield(getBody()).getOperandTypes(),
                          getResultTypes());
}

//===----------------------------------------------------------------------===//
// Tensor creation
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError("value type ")
           << getValue().getType() << " differs from result type "
           << getType();
  if (!getType().hasStaticShape())
    return emitOpError("must have a static shape");
  return success();
}

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  ElementsAttr value;
  if (parser.parseAttribute(value))
    return failure();
  // Describe the type by hand: printing the attribute itself may crash.
  auto type = dyn_cast<RankedTensorType>(value.getType());
  Type element = type ? type.getElementType() : Type();
  auto complex = element ? dyn_cast<ComplexType>(element) : ComplexType();
  bool supported =
      element && (element.isF64() || element.isF32() || element.isF16() ||
                  element.isBF16() || element.isInteger(64) ||
                  element.isInteger(32) || element.isInteger(1) ||
                  (complex && (complex.getElementType().isF32() ||
                               complex.getElementType().isF64())));
  if (!supported)
    return parser.emitError(loc, "needs a ranked tensor of f64, f32, f16, "
                                 "bf16, i64, i32, i1, complex<f32> or "
                                 "complex<f64>");
  result.getOrAddProperties<Properties>().value = value;
  result.addTypes(type);
  return success();
}

void ConstantOp::print(OpAsmPrinter &p) {
  p.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  p << ' ' << getValue();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

/// Created tensors need a static shape: nothing else determines it.
static LogicalResult verifyStaticResult(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (!type.hasStaticShape())
    return op->emitOpError("must have a static shape, got ") << type;
  return success();
}

LogicalResult FillOp::verify() { return verifyStaticResult(*this); }

LogicalResult IotaOp::verify() {
  if (failed(verifyStaticResult(*this)))
    return failure();
  int64_t rank = getType().getRank();
  if (getAxis() < 0 || getAxis() >= std::max<int64_t>(rank, 1) ||
      rank == 0)
    return emitOpError("axis ") << getAxis() << " is out of range for rank "
                                << rank;
  return success();
}

//===----------------------------------------------------------------------===//
// Environments
//===----------------------------------------------------------------------===//

OpFoldResult EnvNewOp::fold(FoldAdaptor) {
  return UnitAttr::get(getContext());
}

#define GET_OP_CLASSES
#include "adjoint/Dialect/Adj/IR/AdjOps.cpp.inc"
