// nsw/nuw go from kernel arithmetic (the SPIR-V module would otherwise need
// NoSignedWrap decorations that -spirv-update-vce does not account for) and
// max/min of booleans become or/and (OpenCL's u_max takes no booleans); the
// host keeps its ops.
// RUN: ir-opt %s -pass-pipeline='builtin.module(gpu.module(adj-intel-legalize-arith))' | FileCheck %s
// And the result is valid SPIR-V once converted:
// RUN: rm -rf %t && mkdir -p %t
// RUN: ir-opt %s -adj-intel-spirv -gpu-module-to-binary -adj-gpu-launch-to-runtime \
// RUN:   | %python %inputs/extract-gpu-binaries.py %t spirv-val | FileCheck %s --check-prefix=COUNT
// REQUIRES: spirv-tools
// COUNT: extracted 1 modules

// CHECK-LABEL: func.func @host
// CHECK:         arith.muli %{{.*}}, %{{.*}} overflow<nsw> : index
// CHECK-LABEL: gpu.func @k
// CHECK:         %[[M:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NOT:     overflow
// CHECK:         arith.addi %[[M]], %{{.*}} : index
// CHECK:         %[[OR:.*]] = arith.ori %[[P:.*]], %[[Q:.*]] : i1
// CHECK:         %[[AND:.*]] = arith.andi %[[P]], %[[Q]] : i1
// CHECK:         %[[SOR:.*]] = arith.ori %[[P]], %[[Q]] : i1
// CHECK:         %[[SAND:.*]] = arith.andi %[[P]], %[[Q]] : i1
// Integers wider than a bit keep max and min.
// CHECK:         arith.maxui %{{.*}}, %{{.*}} : i8
module attributes {gpu.container_module} {
  func.func @host(%a: index) -> index {
    %c2 = arith.constant 2 : index
    %m = arith.muli %a, %c2 overflow<nsw> : index
    return %m : index
  }
  gpu.module @m {
    gpu.func @k(%x: memref<16xf32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %m = arith.muli %t, %c2 overflow<nsw> : index
      %i = arith.addi %m, %c1 overflow<nsw, nuw> : index
      %v = memref.load %x[%i] : memref<16xf32>
      memref.store %v, %x[%m] : memref<16xf32>
      %p = arith.cmpf ogt, %v, %v : f32
      %q = arith.cmpf olt, %v, %v : f32
      %a = arith.maxui %p, %q : i1
      %b = arith.minui %p, %q : i1
      %c = arith.minsi %p, %q : i1
      %d = arith.maxsi %p, %q : i1
      %e = arith.andi %a, %b : i1
      %f = arith.andi %c, %d : i1
      %g = arith.andi %e, %f : i1
      %bytes = arith.extui %g : i1 to i8
      %big = arith.maxui %bytes, %bytes : i8
      %o = arith.uitofp %big : i8 to f32
      memref.store %o, %x[%t] : memref<16xf32>
      gpu.return
    }
  }
}
