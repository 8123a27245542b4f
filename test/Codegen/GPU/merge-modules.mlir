// The kernel modules of a program become one, each distinct kernel once,
// and launches follow their kernels.
// RUN: ir-opt %s -split-input-file -adj-gpu-merge-modules | FileCheck %s

// Three launches of two kernels: the third module's kernel equals the
// first's (value names and locations aside) and is dropped; the second's
// differs by its workgroup size and is kept, renamed (its name is taken).
// CHECK-LABEL: func.func @step(
// CHECK:         gpu.launch_func @f_kernels::@f_kernel blocks
// CHECK:         gpu.launch_func @f_kernels::@f_kernel_0 blocks
// CHECK:         gpu.launch_func @f_kernels::@f_kernel blocks
// CHECK:       gpu.module @f_kernels {
// CHECK-NEXT:    gpu.func @f_kernel(%{{.*}}: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>}
// CHECK:         gpu.func @f_kernel_0(%{{.*}}: memref<4xf32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>}
// CHECK-NOT:   gpu.module
module attributes {gpu.container_module} {
  func.func @step(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c2, %c1, %c1) threads in (%c2, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @f_kernel_1::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
  gpu.module @f_kernel {
    gpu.func @f_kernel(%a: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel(%a: memref<4xf32>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_1 {
    gpu.func @f_kernel(%b: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %j = gpu.thread_id x loc("elsewhere")
      %u = memref.load %b[%j] : memref<4xf32>
      %s = arith.mulf %u, %u : f32
      memref.store %s, %b[%j] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// A body that differs in one operation is another kernel. Symbols beside
// the kernels: an equal declaration is shared, a different function of a
// taken name is renamed with its calls.
// CHECK-LABEL: func.func @g(
// CHECK:         gpu.launch_func @g_kernels::@g_kernel blocks
// CHECK:         gpu.launch_func @g_kernels::@g_kernel_0 blocks
// CHECK:       gpu.module @g_kernels {
// CHECK:         func.func private @scale(f32) -> f32
// CHECK:         func.func @twice(%{{.*}}: f32) -> f32
// CHECK-NEXT:      arith.addf
// CHECK:         gpu.func @g_kernel(
// CHECK:           func.call @scale(
// CHECK:           func.call @twice(
// CHECK:         func.func @twice_0(%{{.*}}: f32) -> f32
// CHECK-NEXT:      arith.mulf
// CHECK:         gpu.func @g_kernel_0(
// CHECK:           arith.subf
// CHECK:           func.call @scale(
// CHECK:           func.call @twice_0(
// CHECK-NOT:     func.func private @scale
module attributes {gpu.container_module} {
  func.func @g(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g_kernel::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @g_kernel_0::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
  gpu.module @g_kernel {
    func.func private @scale(f32) -> f32
    func.func @twice(%v: f32) -> f32 {
      %r = arith.addf %v, %v : f32
      return %r : f32
    }
    gpu.func @g_kernel(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      %s = func.call @scale(%w) : (f32) -> f32
      %t = func.call @twice(%s) : (f32) -> f32
      memref.store %t, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @g_kernel_0 {
    func.func private @scale(f32) -> f32
    func.func @twice(%v: f32) -> f32 {
      %r = arith.mulf %v, %v : f32
      return %r : f32
    }
    gpu.func @g_kernel(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<4xf32>
      %w = arith.subf %v, %v : f32
      %s = func.call @scale(%w) : (f32) -> f32
      %t = func.call @twice(%s) : (f32) -> f32
      memref.store %t, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Modules built for other targets are merged apart; a module alone in its
// group is left as it is.
// CHECK-LABEL: func.func @h(
// CHECK:         gpu.launch_func @h_kernels::@h_kernel blocks
// CHECK:         gpu.launch_func @h_kernels::@h_kernel blocks
// CHECK:         gpu.launch_func @h_kernel_1::@h_kernel blocks
// CHECK:       gpu.module @h_kernels [#nvvm.target<chip = "sm_90">] {
// CHECK-NEXT:    gpu.func @h_kernel(
// CHECK-NOT:     gpu.func
// CHECK:       gpu.module @h_kernel_1 [#nvvm.target<chip = "sm_80">] {
module attributes {gpu.container_module} {
  func.func @h(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @h_kernel::@h_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @h_kernel_0::@h_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @h_kernel_1::@h_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
  gpu.module @h_kernel [#nvvm.target<chip = "sm_90">] {
    gpu.func @h_kernel(%a: memref<4xf32>) kernel { gpu.return }
  }
  gpu.module @h_kernel_0 [#nvvm.target<chip = "sm_90">] {
    gpu.func @h_kernel(%a: memref<4xf32>) kernel { gpu.return }
  }
  gpu.module @h_kernel_1 [#nvvm.target<chip = "sm_80">] {
    gpu.func @h_kernel(%a: memref<4xf32>) kernel { gpu.return }
  }
}

// -----

// Past kernels-per-module kernels, the merged module is spread over
// modules of about equal size, the largest kernel first to the lightest.
// RUN: ir-opt %s -split-input-file -adj-gpu-merge-modules=kernels-per-module=2 | FileCheck %s --check-prefix=SPLIT
// SPLIT-LABEL: func.func @k(
// SPLIT:         gpu.launch_func @k_kernels::@k_kernel blocks
// SPLIT:         gpu.launch_func @k_kernels_0::@k_kernel_0 blocks
// SPLIT:         gpu.launch_func @k_kernels_0::@k_kernel_1 blocks
// SPLIT:       gpu.module @k_kernels {
// SPLIT-NEXT:    gpu.func @k_kernel(
// SPLIT-COUNT-3:   arith.mulf
// SPLIT:       gpu.module @k_kernels_0 {
// SPLIT-NEXT:    gpu.func @k_kernel_0(
// SPLIT:         gpu.func @k_kernel_1(
// SPLIT-NOT:   gpu.module
module attributes {gpu.container_module} {
  func.func @k(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k_kernel::@k_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @k_kernel_0::@k_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @k_kernel_1::@k_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
  gpu.module @k_kernel {
    gpu.func @k_kernel(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<4xf32>
      %w = arith.mulf %v, %v : f32
      %y = arith.mulf %w, %v : f32
      %z = arith.mulf %y, %v : f32
      memref.store %z, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @k_kernel_0 {
    gpu.func @k_kernel(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @k_kernel_1 {
    gpu.func @k_kernel(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<4xf32>
      %w = arith.subf %v, %v : f32
      memref.store %w, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
