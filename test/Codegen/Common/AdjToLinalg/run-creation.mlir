// iota and the random ops end to end: lowered by -adj-lower-to-cpu, JIT-run
// by mlir-runner. The expected values are ir-run's results of the same
// functions. The random numbers must be the interpreter's bit for bit: each
// *_exact function compares a sample with the interpreter's numbers (printed
// by ir-run with all their digits) and returns how many differ.
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s

// Index along axis 1.
// CHECK: sizes = [12]
// CHECK-NEXT: [0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2]
adj.func @iota_f32() -> tensor<12xf32> {
  %y = adj.iota axis = 1 : tensor<2x3x2xf32>
  %flat_ = adj.reshape %y : tensor<2x3x2xf32> to tensor<12xf32>
  adj.return %flat_ : tensor<12xf32>
}

// Index along the last axis.
// CHECK: sizes = [6]
// CHECK-NEXT: [0, 1, 2, 0, 1, 2]
adj.func @iota_i64() -> tensor<6xf32> {
  %y = adj.iota axis = 1 : tensor<2x3xi64>
  %cast_ = adj.cast %y : tensor<2x3xi64> to tensor<2x3xf32>
  %flat_ = adj.reshape %cast_ : tensor<2x3xf32> to tensor<6xf32>
  adj.return %flat_ : tensor<6xf32>
}

// Index along the first axis.
// CHECK: sizes = [6]
// CHECK-NEXT: [0, 0, 1, 1, 2, 2]
adj.func @iota_i32() -> tensor<6xf32> {
  %y = adj.iota axis = 0 : tensor<3x2xi32>
  %cast_ = adj.cast %y : tensor<3x2xi32> to tensor<3x2xf32>
  %flat_ = adj.reshape %cast_ : tensor<3x2xf32> to tensor<6xf32>
  adj.return %flat_ : tensor<6xf32>
}

// i1 is "index != 0".
// CHECK: sizes = [3]
// CHECK-NEXT: [0, 1, 1]
adj.func @iota_i1() -> tensor<3xf32> {
  %y = adj.iota axis = 0 : tensor<3xi1>
  %cast_ = adj.cast %y : tensor<3xi1> to tensor<3xf32>
  adj.return %cast_ : tensor<3xf32>
}

// bf16 rounds large indices: 257 and 259 are not representable.
// CHECK: sizes = [5]
// CHECK-NEXT: [255, 256, 256, 258, 260]
adj.func @iota_bf16() -> tensor<5xf32> {
  %a = adj.iota axis = 0 : tensor<260xbf16>
  %y = adj.slice %a start = [255] limit = [260] stride = [1] : tensor<260xbf16>
  %cast_ = adj.cast %y : tensor<5xbf16> to tensor<5xf32>
  adj.return %cast_ : tensor<5xf32>
}

// f16.
// CHECK: sizes = [4]
// CHECK-NEXT: [0, 1, 2, 3]
adj.func @iota_f16() -> tensor<4xf32> {
  %y = adj.iota axis = 1 : tensor<1x4xf16>
  %cast_ = adj.cast %y : tensor<1x4xf16> to tensor<1x4xf32>
  %flat_ = adj.reshape %cast_ : tensor<1x4xf32> to tensor<4xf32>
  adj.return %flat_ : tensor<4xf32>
}

// A few uniform samples in [-1, 3).
// CHECK: sizes = [6]
// CHECK-NEXT: [-0.877162, -0.0545579, -0.967124, 1.827, -0.989586, 0.86376]
adj.func @random_uniform_f32() -> tensor<6xf32> {
  %s = adj.constant dense<42> : tensor<i64>
  %y = adj.random_uniform %s low = -1.0 high = 3.0 : tensor<i64> to tensor<2x3xf32>
  %flat_ = adj.reshape %y : tensor<2x3xf32> to tensor<6xf32>
  adj.return %flat_ : tensor<6xf32>
}

// A few normal samples, mean 0.5 and std 2.
// CHECK: sizes = [6]
// CHECK-NEXT: [0.542757, 0.431033, 0.358885, -1.91106, 0.378416, 1.8416]
adj.func @random_normal_f32() -> tensor<6xf32> {
  %s = adj.constant dense<42> : tensor<i64>
  %y = adj.random_normal %s mean = 0.5 std = 2.0 : tensor<i64> to tensor<2x3xf32>
  %flat_ = adj.reshape %y : tensor<2x3xf32> to tensor<6xf32>
  adj.return %flat_ : tensor<6xf32>
}

// f64, seed -123456789: every other element of the last row of a 64x64 tensor.
// CHECK: sizes = [1]
// CHECK-NEXT: [0]
adj.func @random_normal_f64_exact() -> tensor<1xf32> {
  %s = adj.constant dense<-123456789> : tensor<i64>
  %r = adj.random_normal %s mean = 0.25 std = 1.5 : tensor<i64> to tensor<64x64xf64>
  %y = adj.slice %r start = [63, 0] limit = [64, 64] stride = [1, 2] : tensor<64x64xf64>

  %e = adj.constant dense<[[0.3740095561918267, 1.7782261949823928, -0.9031004228431831, 1.1401595643025744, 0.19397439747042755, -0.9345648730663227, 0.3464501425731186, 0.011859726670526205, -1.121786760516972, 1.5605715006466747, 2.870659567492101, -0.737614298522384, -0.5303712952618974, -0.509678955919551, 0.9909577613317461, 1.419325772896069, -1.587482898242642, 3.7126746324680253, -0.8383299721040713, -0.8776382546943604, 2.755419767453973, -0.46541095458458703, 2.455495652077665, -1.0268609360270688, -1.387283164172302, -2.5575310146800874, -2.0440809110804614, -1.4239571187014843, -0.38394517982494214, 1.5158014225538738, -0.17542848325697197, 0.19471704277448126]]> : tensor<1x32xf64>
  %ne = adj.cmp ne, %y, %e : tensor<1x32xf64>, tensor<1x32xf64>
  %c = adj.cast %ne : tensor<1x32xi1> to tensor<1x32xf32>
  %n = adj.reduce_sum %c axes = [0, 1] keepdims : tensor<1x32xf32>
  %flat_ = adj.reshape %n : tensor<1x1xf32> to tensor<1xf32>
  adj.return %flat_ : tensor<1xf32>
}

// CHECK: sizes = [1]
// CHECK-NEXT: [0]
adj.func @random_normal_f32_exact() -> tensor<1xf32> {
  %s = adj.constant dense<7> : tensor<i64>
  %r = adj.random_normal %s mean = 0.25 std = 1.5 : tensor<i64> to tensor<64x64xf32>
  %y = adj.slice %r start = [63, 0] limit = [64, 64] stride = [1, 2] : tensor<64x64xf32>

  %e = adj.constant dense<[[1.4559374, 0.06012043, 0.89139, 0.9153477, 1.117183, 0.39807644, 2.1347787, 0.8416026, 0.817347, -0.42351392, 2.4607716, -0.8295682, 1.959444, -2.2912307, 0.21282771, 1.2041653, 1.1925493, -1.2445962, 1.1983545, 2.1668248, -2.2741563, 0.3185394, -2.4351337, 0.61570567, 2.41245, 2.6400516, -1.0042274, -0.841317, -1.9076574, -1.9620165, -0.9240941, -0.73272276]]> : tensor<1x32xf32>
  %ne = adj.cmp ne, %y, %e : tensor<1x32xf32>, tensor<1x32xf32>
  %c = adj.cast %ne : tensor<1x32xi1> to tensor<1x32xf32>
  %n = adj.reduce_sum %c axes = [0, 1] keepdims : tensor<1x32xf32>
  %flat_ = adj.reshape %n : tensor<1x1xf32> to tensor<1xf32>
  adj.return %flat_ : tensor<1xf32>
}

// CHECK: sizes = [1]
// CHECK-NEXT: [0]
adj.func @random_normal_f16_exact() -> tensor<1xf32> {
  %s = adj.constant dense<0> : tensor<i64>
  %r = adj.random_normal %s mean = 0.25 std = 1.5 : tensor<i64> to tensor<64x64xf16>
  %y = adj.slice %r start = [63, 0] limit = [64, 64] stride = [1, 2] : tensor<64x64xf16>

  %e = adj.constant dense<[[1.5722656, -0.5527344, -1.9667969, -0.69873047, -0.6948242, -0.41015625, 0.033416748, -0.48901367, 0.8569336, 1.4179688, 2.1171875, -3.2539062, -0.001332283, 1.3447266, -2.3007812, 1.4248047, 3.875, -0.2841797, -0.69189453, 1.9599609, -2.1621094, 0.5620117, 1.2363281, -0.19433594, 2.1738281, 1.0458984, 2.9394531, 0.064819336, 0.41308594, -0.6616211, 2.0664062, -0.16748047]]> : tensor<1x32xf16>
  %ne = adj.cmp ne, %y, %e : tensor<1x32xf16>, tensor<1x32xf16>
  %c = adj.cast %ne : tensor<1x32xi1> to tensor<1x32xf32>
  %n = adj.reduce_sum %c axes = [0, 1] keepdims : tensor<1x32xf32>
  %flat_ = adj.reshape %n : tensor<1x1xf32> to tensor<1xf32>
  adj.return %flat_ : tensor<1xf32>
}

// CHECK: sizes = [1]
// CHECK-NEXT: [0]
adj.func @random_normal_bf16_exact() -> tensor<1xf32> {
  %s = adj.constant dense<1234567890123> : tensor<i64>
  %r = adj.random_normal %s mean = 0.25 std = 1.5 : tensor<i64> to tensor<64x64xbf16>
  %y = adj.slice %r start = [63, 0] limit = [64, 64] stride = [1, 2] : tensor<64x64xbf16>

  %e = adj.constant dense<[[2.296875, 1.2421875, 0.3046875, -1.0625, -0.9453125, 1.8203125, 0.17480469, -2.5, 3.171875, 1.8046875, -1.03125, -2.34375, 0.8671875, 2.75, 2.34375, 0.375, -2.328125, -1.625, 1.0625, -0.33203125, 0.068847656, 1.0234375, 1.5390625, -0.76171875, -1.171875, -2.34375, -1.1171875, 1.2421875, -0.52734375, 0.3046875, 0.9296875, 0.61328125]]> : tensor<1x32xbf16>
  %ne = adj.cmp ne, %y, %e : tensor<1x32xbf16>, tensor<1x32xbf16>
  %c = adj.cast %ne : tensor<1x32xi1> to tensor<1x32xf32>
  %n = adj.reduce_sum %c axes = [0, 1] keepdims : tensor<1x32xf32>
  %flat_ = adj.reshape %n : tensor<1x1xf32> to tensor<1xf32>
  adj.return %flat_ : tensor<1xf32>
}

// CHECK: sizes = [1]
// CHECK-NEXT: [0]
adj.func @random_uniform_f64_exact() -> tensor<1xf32> {
  %s = adj.constant dense<-123456789> : tensor<i64>
  %r = adj.random_uniform %s low = -3.0 high = 0.5 : tensor<i64> to tensor<64x64xf64>
  %y = adj.slice %r start = [63, 0] limit = [64, 64] stride = [1, 2] : tensor<64x64xf64>

  %e = adj.constant dense<[[0.21509285577588333, -0.07840189699242561, -1.730841473297121, -1.36000943526802, -2.046657357501913, -1.7698479500335544, -1.562618427684611, -1.2372361589397167, -2.4615332551881584, -1.384172664736984, -0.957167935517401, -0.5046124177440579, -0.3491622149443918, -1.0355330810659937, -1.6731478082837534, -0.8756297812469733, -2.889287034282747, -1.2271878398874188, -1.1498124785539678, -2.4618116919178283, -2.079801940881421, -2.890416677733792, -1.0512623731711028, -2.141323707933785, -0.3753306369422704, 0.10748162302275066, -1.8764233696107917, -2.05074184471211, -1.0272790042500655, -0.0914559313908958, -2.011065401260035, -0.3566406045672399]]> : tensor<1x32xf64>
  %ne = adj.cmp ne, %y, %e : tensor<1x32xf64>, tensor<1x32xf64>
  %c = adj.cast %ne : tensor<1x32xi1> to tensor<1x32xf32>
  %n = adj.reduce_sum %c axes = [0, 1] keepdims : tensor<1x32xf32>
  %flat_ = adj.reshape %n : tensor<1x1xf32> to tensor<1xf32>
  adj.return %flat_ : tensor<1xf32>
}

// CHECK: sizes = [1]
// CHECK-NEXT: [0]
adj.func @random_uniform_f32_exact() -> tensor<1xf32> {
  %s = adj.constant dense<7> : tensor<i64>
  %r = adj.random_uniform %s low = -3.0 high = 0.5 : tensor<i64> to tensor<64x64xf32>
  %y = adj.slice %r start = [63, 0] limit = [64, 64] stride = [1, 2] : tensor<64x64xf32>

  %e = adj.constant dense<[[0.13944809, -2.878445, -1.5836691, -0.04414461, -0.1970893, -0.2985831, -2.9717824, -1.3172137, -2.4899197, -1.7926466, -0.3440546, -1.2757493, -0.94518137, -1.8285536, -0.428331, 0.22704677, -2.9444892, -2.1143098, -0.5023543, -2.2193174, -0.23440659, -1.543478, -1.9889113, -0.61409473, 0.46478662, -2.2910466, -0.8154651, -1.0951529, -1.5928191, -2.1819656, -0.27095687, 0.31439233]]> : tensor<1x32xf32>
  %ne = adj.cmp ne, %y, %e : tensor<1x32xf32>, tensor<1x32xf32>
  %c = adj.cast %ne : tensor<1x32xi1> to tensor<1x32xf32>
  %n = adj.reduce_sum %c axes = [0, 1] keepdims : tensor<1x32xf32>
  %flat_ = adj.reshape %n : tensor<1x1xf32> to tensor<1xf32>
  adj.return %flat_ : tensor<1xf32>
}

// CHECK: sizes = [1]
// CHECK-NEXT: [0]
adj.func @random_uniform_f16_exact() -> tensor<1xf32> {
  %s = adj.constant dense<0> : tensor<i64>
  %r = adj.random_uniform %s low = -3.0 high = 0.5 : tensor<i64> to tensor<64x64xf16>
  %y = adj.slice %r start = [63, 0] limit = [64, 64] stride = [1, 2] : tensor<64x64xf16>

  %e = adj.constant dense<[[-1.3984375, -1.7880859, -2.6757812, -0.3791504, -0.94970703, -0.96435547, -0.31420898, -0.06341553, -1.8261719, -0.6958008, -0.8515625, 0.32226562, -0.8041992, -1.3505859, -0.75683594, -1.0126953, -1.6191406, -1.1728516, -0.90234375, -2.734375, -0.72314453, -2.4746094, -0.12298584, -2.1835938, -2.0878906, -0.31811523, -0.97509766, -0.38134766, -1.9238281, -1.7578125, -0.015357971, -1.03125]]> : tensor<1x32xf16>
  %ne = adj.cmp ne, %y, %e : tensor<1x32xf16>, tensor<1x32xf16>
  %c = adj.cast %ne : tensor<1x32xi1> to tensor<1x32xf32>
  %n = adj.reduce_sum %c axes = [0, 1] keepdims : tensor<1x32xf32>
  %flat_ = adj.reshape %n : tensor<1x1xf32> to tensor<1xf32>
  adj.return %flat_ : tensor<1xf32>
}

// CHECK: sizes = [1]
// CHECK-NEXT: [0]
adj.func @random_uniform_bf16_exact() -> tensor<1xf32> {
  %s = adj.constant dense<1234567890123> : tensor<i64>
  %r = adj.random_uniform %s low = -3.0 high = 0.5 : tensor<i64> to tensor<64x64xbf16>
  %y = adj.slice %r start = [63, 0] limit = [64, 64] stride = [1, 2] : tensor<64x64xbf16>

  %e = adj.constant dense<[[-1.4453125, -0.36328125, -2.703125, -2.671875, -0.40039062, -1.921875, -0.20605469, -0.0005569458, -2.109375, -1.0625, -2.0625, -0.33007812, -2.4375, -1.6875, -2.3125, -2.578125, -0.54296875, -1.515625, -0.78125, -2.484375, -1.3046875, -0.59765625, -1.375, -0.44921875, -1.84375, -3.0, -2.546875, -1.765625, -0.14257812, -1.6484375, 0.32226562, -0.640625]]> : tensor<1x32xbf16>
  %ne = adj.cmp ne, %y, %e : tensor<1x32xbf16>, tensor<1x32xbf16>
  %c = adj.cast %ne : tensor<1x32xi1> to tensor<1x32xf32>
  %n = adj.reduce_sum %c axes = [0, 1] keepdims : tensor<1x32xf32>
  %flat_ = adj.reshape %n : tensor<1x1xf32> to tensor<1xf32>
  adj.return %flat_ : tensor<1xf32>
}

func.func @main() {
  %f0 = adj.func_ref @iota_f32 : !adj.fn<() -> tensor<12xf32>>
  %t0 = adj.call %f0() : !adj.fn<() -> tensor<12xf32>>
  %m0 = bufferization.to_buffer %t0 : tensor<12xf32> to memref<12xf32>
  %u0 = memref.cast %m0 : memref<12xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %f1 = adj.func_ref @iota_i64 : !adj.fn<() -> tensor<6xf32>>
  %t1 = adj.call %f1() : !adj.fn<() -> tensor<6xf32>>
  %m1 = bufferization.to_buffer %t1 : tensor<6xf32> to memref<6xf32>
  %u1 = memref.cast %m1 : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %f2 = adj.func_ref @iota_i32 : !adj.fn<() -> tensor<6xf32>>
  %t2 = adj.call %f2() : !adj.fn<() -> tensor<6xf32>>
  %m2 = bufferization.to_buffer %t2 : tensor<6xf32> to memref<6xf32>
  %u2 = memref.cast %m2 : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %f3 = adj.func_ref @iota_i1 : !adj.fn<() -> tensor<3xf32>>
  %t3 = adj.call %f3() : !adj.fn<() -> tensor<3xf32>>
  %m3 = bufferization.to_buffer %t3 : tensor<3xf32> to memref<3xf32>
  %u3 = memref.cast %m3 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  %f4 = adj.func_ref @iota_bf16 : !adj.fn<() -> tensor<5xf32>>
  %t4 = adj.call %f4() : !adj.fn<() -> tensor<5xf32>>
  %m4 = bufferization.to_buffer %t4 : tensor<5xf32> to memref<5xf32>
  %u4 = memref.cast %m4 : memref<5xf32> to memref<*xf32>
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  %f5 = adj.func_ref @iota_f16 : !adj.fn<() -> tensor<4xf32>>
  %t5 = adj.call %f5() : !adj.fn<() -> tensor<4xf32>>
  %m5 = bufferization.to_buffer %t5 : tensor<4xf32> to memref<4xf32>
  %u5 = memref.cast %m5 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
  %f6 = adj.func_ref @random_uniform_f32 : !adj.fn<() -> tensor<6xf32>>
  %t6 = adj.call %f6() : !adj.fn<() -> tensor<6xf32>>
  %m6 = bufferization.to_buffer %t6 : tensor<6xf32> to memref<6xf32>
  %u6 = memref.cast %m6 : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u6) : (memref<*xf32>) -> ()
  %f7 = adj.func_ref @random_normal_f32 : !adj.fn<() -> tensor<6xf32>>
  %t7 = adj.call %f7() : !adj.fn<() -> tensor<6xf32>>
  %m7 = bufferization.to_buffer %t7 : tensor<6xf32> to memref<6xf32>
  %u7 = memref.cast %m7 : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u7) : (memref<*xf32>) -> ()
  %f8 = adj.func_ref @random_normal_f64_exact : !adj.fn<() -> tensor<1xf32>>
  %t8 = adj.call %f8() : !adj.fn<() -> tensor<1xf32>>
  %m8 = bufferization.to_buffer %t8 : tensor<1xf32> to memref<1xf32>
  %u8 = memref.cast %m8 : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u8) : (memref<*xf32>) -> ()
  %f9 = adj.func_ref @random_normal_f32_exact : !adj.fn<() -> tensor<1xf32>>
  %t9 = adj.call %f9() : !adj.fn<() -> tensor<1xf32>>
  %m9 = bufferization.to_buffer %t9 : tensor<1xf32> to memref<1xf32>
  %u9 = memref.cast %m9 : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u9) : (memref<*xf32>) -> ()
  %f10 = adj.func_ref @random_normal_f16_exact : !adj.fn<() -> tensor<1xf32>>
  %t10 = adj.call %f10() : !adj.fn<() -> tensor<1xf32>>
  %m10 = bufferization.to_buffer %t10 : tensor<1xf32> to memref<1xf32>
  %u10 = memref.cast %m10 : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u10) : (memref<*xf32>) -> ()
  %f11 = adj.func_ref @random_normal_bf16_exact : !adj.fn<() -> tensor<1xf32>>
  %t11 = adj.call %f11() : !adj.fn<() -> tensor<1xf32>>
  %m11 = bufferization.to_buffer %t11 : tensor<1xf32> to memref<1xf32>
  %u11 = memref.cast %m11 : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u11) : (memref<*xf32>) -> ()
  %f12 = adj.func_ref @random_uniform_f64_exact : !adj.fn<() -> tensor<1xf32>>
  %t12 = adj.call %f12() : !adj.fn<() -> tensor<1xf32>>
  %m12 = bufferization.to_buffer %t12 : tensor<1xf32> to memref<1xf32>
  %u12 = memref.cast %m12 : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u12) : (memref<*xf32>) -> ()
  %f13 = adj.func_ref @random_uniform_f32_exact : !adj.fn<() -> tensor<1xf32>>
  %t13 = adj.call %f13() : !adj.fn<() -> tensor<1xf32>>
  %m13 = bufferization.to_buffer %t13 : tensor<1xf32> to memref<1xf32>
  %u13 = memref.cast %m13 : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u13) : (memref<*xf32>) -> ()
  %f14 = adj.func_ref @random_uniform_f16_exact : !adj.fn<() -> tensor<1xf32>>
  %t14 = adj.call %f14() : !adj.fn<() -> tensor<1xf32>>
  %m14 = bufferization.to_buffer %t14 : tensor<1xf32> to memref<1xf32>
  %u14 = memref.cast %m14 : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u14) : (memref<*xf32>) -> ()
  %f15 = adj.func_ref @random_uniform_bf16_exact : !adj.fn<() -> tensor<1xf32>>
  %t15 = adj.call %f15() : !adj.fn<() -> tensor<1xf32>>
  %m15 = bufferization.to_buffer %t15 : tensor<1xf32> to memref<1xf32>
  %u15 = memref.cast %m15 : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u15) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
