// Reductions become cooperative kernels: a workgroup per row with a shuffle
// butterfly and workgroup memory, or a work item per output for columns.
// RUN: ir-opt %s -split-input-file -adj-gpu-reductions="subgroup-size=16 workgroup-size=64" | FileCheck %s
// The kernels convert to SPIR-V for OpenCL with upstream passes and validate.
// RUN: ir-opt %s -split-input-file -adj-gpu-reductions="subgroup-size=16 workgroup-size=64" \
// RUN:   -gpu-kernel-outlining -adj-gpu-workgroup-allocs \
// RUN: | mlir-opt -split-input-file -pass-pipeline='builtin.module(gpu.module(test-spirv-entry-point-abi{subgroup-size=16}),gpu.module(convert-math-to-spirv),convert-gpu-to-spirv{use-64bit-index=true},gpu.module(spirv.module(spirv-lower-abi-attrs,spirv-update-vce)))' \
// RUN: | python3 %inputs/validate-spirv.py %t | FileCheck %s --check-prefix=SPIRV
// RUN: ir-opt %s -split-input-file -adj-gpu-reductions="subgroup-size=16 workgroup-size=64 fuse-consumers=false" | FileCheck %s --check-prefix=NOFUSE
// RUN: not ir-opt %s -split-input-file -adj-gpu-reductions="subgroup-size=16 workgroup-size=40" 2>&1 \
// RUN: | FileCheck %s --check-prefix=OPTIONS

// SPIRV-COUNT-12: valid
// SPIRV-NOT: failed
// OPTIONS: workgroup-size a multiple of it, at most its square (got 16 and 40)

// A row sum of exp(x) (the producer fused in the payload): 37 workgroups
// of 64 work items (53 elements round up to 64), a butterfly over offsets
// 8..1 of width 16, the 4 subgroup partials through workgroup memory, and
// work item 0 adds the result to the initial value.
// CHECK-LABEL: func.func @row_sum
// CHECK-DAG:  %[[C37:.*]] = arith.constant 37 : index
// CHECK-DAG:  %[[C64:.*]] = arith.constant 64 : index
// CHECK:      gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C37]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C64]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) workgroup(%[[PART:.*]] : memref<4xf32, #gpu.address_space<workgroup>>)
// CHECK:        scf.for
// CHECK:          arith.cmpi ult
// CHECK:          scf.if
// CHECK:            memref.load %{{.*}}[%[[BX]], %{{.*}}] : memref<37x53xf32>
// CHECK:            math.exp
// CHECK:            arith.addf
// CHECK:      gpu.shuffle  xor %{{.*}}, %c8_i32, %c16_i32 : f32
// CHECK:      gpu.shuffle  xor %{{.*}}, %c1_i32{{.*}}, %c16_i32{{.*}} : f32
// CHECK:      scf.if
// CHECK-NEXT:   memref.store %{{.*}}, %[[PART]]
// CHECK:      gpu.barrier
// CHECK:      memref.load %[[PART]]
// CHECK:      arith.select
// CHECK:      gpu.shuffle  xor
// CHECK:      %[[FIRST:.*]] = arith.cmpi eq, %[[TX]]
// CHECK:      scf.if %[[FIRST]] {
// CHECK:        %[[OLD:.*]] = memref.load %[[OUT:.*]][%[[BX]]] : memref<37xf32>
// CHECK:        %[[NEW:.*]] = arith.addf %{{.*}}, %[[OLD]] fastmath<reassoc> : f32
// CHECK:        memref.store %[[NEW]], %[[OUT]][%[[BX]]]
// CHECK:      gpu.terminator
// CHECK:      } {adj.subgroup_size = 16 : i64}
// CHECK-NOT:  linalg.generic
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64, GroupNonUniform, GroupNonUniformShuffle, SubgroupDispatch], []>, api=OpenCL, #spirv.resource_limits<subgroup_size = 16>>} {
func.func @row_sum(%x: memref<37x53xf32>, %out: memref<37xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<37x53xf32>) outs(%out : memref<37xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %e = math.exp %in : f32
    %s = arith.addf %e, %acc fastmath<reassoc> : f32
    linalg.yield %s : f32
  }
  return
}
}

// -----

// A column max in f64 (the reduced dim is outer): workgroups of 32 columns
// x 2 slices of the rows (64 work items), 2 workgroups for 53 columns;
// work item (x, y) reads rows y, y + 2, ... of column x (adjacent x read
// adjacent words), the slice partials meet in workgroup memory and work
// item (x, 0) combines them with the initial value. No shuffles.
// CHECK-LABEL: func.func @column_max
// CHECK:      gpu.launch blocks(%[[BX:[a-z0-9]+]], {{.*}} in (%{{.*}} = %c2{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}) threads(%[[TX:[a-z0-9]+]], %[[TY:[a-z0-9]+]], %{{[a-z0-9]+}}) in (%{{.*}} = %c32{{[_0-9]*}}, %{{.*}} = %c2{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}) workgroup(%[[PART:.*]] : memref<2x32xf64, #gpu.address_space<workgroup>>)
// CHECK:        %[[COL:.*]] = arith.addi %{{.*}}, %[[TX]] : index
// CHECK:        %[[ACTIVE:.*]] = arith.cmpi ult, %[[COL]], %c53 : index
// CHECK:        scf.for %{{.*}} = %c0{{[_0-9]*}} to %c19{{[_0-9]*}} step
// CHECK:          %[[ROW:.*]] = arith.addi %{{.*}}, %[[TY]] : index
// CHECK:          arith.andi %{{.*}}, %[[ACTIVE]] : i1
// CHECK:          memref.load %{{.*}}[%[[ROW]], %[[COL]]] : memref<37x53xf64>
// CHECK:          arith.maximumf
// CHECK:        memref.store %{{.*}}, %[[PART]][%[[TY]], %[[TX]]]
// CHECK:        gpu.barrier
// CHECK:        scf.if
// CHECK:          scf.for
// CHECK:            memref.load %[[PART]]
// CHECK:          memref.load %{{.*}}[%[[COL]]] : memref<53xf64>
// CHECK:          memref.store
// CHECK-NOT:  gpu.shuffle
// CHECK-NOT:  linalg.generic
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64, GroupNonUniform, GroupNonUniformShuffle, SubgroupDispatch], []>, api=OpenCL, #spirv.resource_limits<subgroup_size = 16>>} {
func.func @column_max(%x: memref<37x53xf64>, %out: memref<53xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<37x53xf64>) outs(%out : memref<53xf64>) {
  ^bb0(%in: f64, %acc: f64):
    %m = arith.maximumf %in, %acc : f64
    linalg.yield %m : f64
  }
  return
}
}

// -----

// Two outputs with their own combiners (sum of squares, integer max) and a
// reduction over both dims of a 3-d input into a 1-d output; the identities
// are 0 and INT_MIN.
// CHECK-LABEL: func.func @two_outputs
// CHECK:      workgroup(%{{.*}} : memref<4xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<4xi32, #gpu.address_space<workgroup>>)
// CHECK-DAG:  arith.constant 0 : i32
// CHECK-DAG:  arith.constant -2147483648 : i32
// CHECK:      arith.muli
// CHECK:      arith.addi
// CHECK:      arith.maxsi
// CHECK:      gpu.shuffle  xor {{.*}} : i32
// CHECK-NOT:  linalg.generic
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64, GroupNonUniform, GroupNonUniformShuffle, SubgroupDispatch], []>, api=OpenCL, #spirv.resource_limits<subgroup_size = 16>>} {
func.func @two_outputs(%x: memref<3x7x20xi32>, %sq: memref<3xi32>, %mx: memref<3xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0)>],
                  iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : memref<3x7x20xi32>) outs(%sq, %mx : memref<3xi32>, memref<3xi32>) {
  ^bb0(%in: i32, %a: i32, %b: i32):
    %q = arith.muli %in, %in : i32
    %s = arith.addi %q, %a : i32
    %m = arith.maxsi %b, %in : i32
    linalg.yield %s, %m : i32, i32
  }
  return
}
}

// -----

// linalg.reduce takes the same kernel once generalized: a row max of 100.
// CHECK-LABEL: func.func @named_reduce
// CHECK:      gpu.launch {{.*}} in (%{{.*}} = %c6{{[_0-9]*}}, {{.*}} threads(%{{[^)]*}}) in (%{{.*}} = %c64{{[_0-9]*}},
// CHECK:      arith.maximumf
// CHECK:      gpu.shuffle  xor
// CHECK-NOT:  linalg.reduce
// CHECK-NOT:  linalg.generic
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64, GroupNonUniform, GroupNonUniformShuffle, SubgroupDispatch], []>, api=OpenCL, #spirv.resource_limits<subgroup_size = 16>>} {
func.func @named_reduce(%x: memref<6x100xf32>, %out: memref<6xf32>) {
  linalg.reduce ins(%x : memref<6x100xf32>) outs(%out : memref<6xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return
}
}

// -----

// Softmax: the elementwise op after each row reduction reads the row's
// result through a view with a unit dim and writes a fresh buffer, so it
// runs in the reduction's kernel: every work item combines the result
// with the initial value, a barrier, work item 0 stores it, and every work
// item applies exp(x - max) (then e / sum) to its part of the row. Two
// launches instead of four; the consumers' buffers are allocated first.
// CHECK-LABEL: func.func @softmax
// CHECK:      %[[E:.*]] = memref.alloc() : memref<4x100xf32>
// CHECK:      gpu.launch
// CHECK:        gpu.shuffle
// CHECK:        %[[OLD:.*]] = memref.load %[[MAX:[a-z0-9]+]][%{{.*}}] : memref<4xf32>
// CHECK:        %[[ROWMAX:.*]] = arith.maximumf %{{.*}}, %[[OLD]] : f32
// CHECK:        gpu.barrier
// CHECK:        scf.if
// CHECK:          memref.store %[[ROWMAX]], %[[MAX]]
// CHECK:        scf.for
// CHECK:          scf.if
// CHECK:            %[[X:.*]] = memref.load %{{.*}} : memref<4x100xf32>
// CHECK:            %[[D:.*]] = arith.subf %[[X]], %[[ROWMAX]] : f32
// CHECK:            %[[EX:.*]] = math.exp %[[D]] : f32
// CHECK:            memref.store %[[EX]], %[[E]][%{{.*}}, %{{.*}}] : memref<4x100xf32>
// CHECK:      memref.expand_shape
// CHECK:      %[[Y:.*]] = memref.alloc() : memref<4x100xf32>
// CHECK:      gpu.launch
// CHECK:            memref.load %[[E]]
// CHECK:            arith.divf
// CHECK:            memref.store %{{.*}}, %[[Y]]
// CHECK-NOT:  linalg.generic
// CHECK:      return %[[Y]]
// NOFUSE-LABEL: func.func @softmax
// NOFUSE:     gpu.launch
// NOFUSE:     linalg.generic
// NOFUSE:     gpu.launch
// NOFUSE:     linalg.generic
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64, GroupNonUniform, GroupNonUniformShuffle, SubgroupDispatch], []>, api=OpenCL, #spirv.resource_limits<subgroup_size = 16>>} {
func.func @softmax(%x: memref<4x100xf32>, %m: memref<4xf32>, %s: memref<4xf32>) -> memref<4x100xf32> {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x100xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    linalg.yield %r : f32
  }
  %mv = memref.expand_shape %m [[0, 1]] output_shape [4, 1] : memref<4xf32> into memref<4x1xf32>
  %e = memref.alloc() : memref<4x100xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mv : memref<4x100xf32>, memref<4x1xf32>) outs(%e : memref<4x100xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<4x100xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  %sv = memref.expand_shape %s [[0, 1]] output_shape [4, 1] : memref<4xf32> into memref<4x1xf32>
  %y = memref.alloc() : memref<4x100xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sv : memref<4x100xf32>, memref<4x1xf32>) outs(%y : memref<4x100xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %q = arith.divf %in, %sum : f32
    linalg.yield %q : f32
  }
  return %y : memref<4x100xf32>
}
}

// -----

// Layer norm's statistics: the in-place division that turns each sum into
// a mean runs on the row result inside the kernel (before the store), then
// the centered square of the variance reads the mean as a fused producer,
// and the same epilogue divides it. A negation of a full sum (rank-0) is
// an epilogue too. Three launches, no linalg op left.
// CHECK-LABEL: func.func @mean_var
// CHECK:      gpu.launch
// CHECK:        gpu.shuffle
// CHECK:        %[[OLD:.*]] = memref.load %{{.*}} : memref<4xf32>
// CHECK:        %[[SUM:.*]] = arith.addf %{{.*}}, %[[OLD]] : f32
// CHECK:        %[[MEAN:.*]] = arith.divf %[[SUM]], %{{.*}} : f32
// CHECK:        gpu.barrier
// CHECK:        scf.if
// CHECK:          memref.store %[[MEAN]], %{{.*}} : memref<4xf32>
// CHECK:      gpu.launch
// CHECK:        arith.subf
// CHECK:        arith.mulf
// CHECK:        arith.divf
// CHECK:      gpu.launch
// CHECK:        gpu.shuffle
// CHECK:        %[[TOLD:.*]] = memref.load %{{.*}}[] : memref<f32>
// CHECK:        %[[T:.*]] = arith.addf %{{.*}}, %[[TOLD]] : f32
// CHECK:        %[[NEG:.*]] = arith.negf %[[T]] : f32
// CHECK:          memref.store %[[NEG]], %{{.*}}[] : memref<f32>
// CHECK-NOT:  linalg.generic
// NOFUSE-LABEL: func.func @mean_var
// NOFUSE:     gpu.launch
// NOFUSE:     linalg.generic
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64, GroupNonUniform, GroupNonUniformShuffle, SubgroupDispatch], []>, api=OpenCL, #spirv.resource_limits<subgroup_size = 16>>} {
func.func @mean_var(%x: memref<4x100xf32>, %m: memref<4xf32>, %v: memref<4xf32>, %t: memref<f32>) {
  %n = arith.constant 100.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x100xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%m : memref<4xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  }
  %mv = memref.expand_shape %m [[0, 1]] output_shape [4, 1] : memref<4xf32> into memref<4x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mv : memref<4x100xf32>, memref<4x1xf32>) outs(%v : memref<4xf32>) {
  ^bb0(%in: f32, %mean: f32, %acc: f32):
    %d = arith.subf %in, %mean : f32
    %s = arith.mulf %d, %d : f32
    %r = arith.addf %s, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v : memref<4xf32>) outs(%v : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<4x100xf32>) outs(%t : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%t : memref<f32>) outs(%t : memref<f32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.negf %in : f32
    linalg.yield %q : f32
  }
  return
}
}

// -----

// Consumers not fused: one reads the result of another row (a transposed
// map on a square), one writes a buffer the caller passed, one is separated
// from the reduction by a store. The reductions still get row kernels.
// CHECK-LABEL: func.func @consumers_left_alone
// CHECK:      gpu.launch
// CHECK:      linalg.generic
// CHECK:      gpu.launch
// CHECK:      linalg.generic
// CHECK:      gpu.launch
// CHECK:      memref.store
// CHECK:      linalg.generic
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64, GroupNonUniform, GroupNonUniformShuffle, SubgroupDispatch], []>, api=OpenCL, #spirv.resource_limits<subgroup_size = 16>>} {
func.func @consumers_left_alone(%x: memref<64x64xf32>, %m: memref<64xf32>, %out: memref<64x64xf32>, %c: f32) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  %a = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<64x64xf32>, memref<64xf32>) outs(%a : memref<64x64xf32>) {
  ^bb0(%in: f32, %r: f32, %o: f32):
    %d = arith.subf %in, %r : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<64x64xf32>, memref<64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%in: f32, %r: f32, %o: f32):
    %d = arith.subf %in, %r : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  %i0 = arith.constant 0 : index
  memref.store %c, %x[%i0, %i0] : memref<64x64xf32>
  %b = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<64x64xf32>, memref<64xf32>) outs(%b : memref<64x64xf32>) {
  ^bb0(%in: f32, %r: f32, %o: f32):
    %d = arith.subf %in, %r : f32
    linalg.yield %d : f32
  }
  return
}
}

// -----

// Left alone: a payload whose result is not combiner(x, out) (out - x is
// not associative), an output not indexed by every parallel loop, and
// dynamic shapes.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:  gpu.launch
// CHECK-COUNT-3: linalg.generic
func.func @left_alone(%x: memref<4x8xf32>, %out: memref<4xf32>, %y: memref<?x8xf32>, %o2: memref<?xf32>, %one: memref<1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.subf %acc, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%one : memref<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<?x8xf32>) outs(%o2 : memref<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}
