// Found by the fuzzer: printing a dense attribute of i0 crashes MLIR 22, so
// the parser must reject the element type before the op exists.
adj.constant dense<0> : tensor<i00>
