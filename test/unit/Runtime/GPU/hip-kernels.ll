; The HIP driver tests' code object (HipTest.cpp): built at build time by
; llc for gfx942 and linked by ld.lld into an HSACO, whose amdhsa.kernels
; metadata the fake runtime reads the arguments from. scale(out, in,
; factor, n): out[i] = in[i] * factor for i < n, one element per work item.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @scale(ptr addrspace(1) %out, ptr addrspace(1) %in,
                                 float %factor, i64 %n) {
entry:
  %block = call i32 @llvm.amdgcn.workgroup.id.x()
  %thread = call i32 @llvm.amdgcn.workitem.id.x()
  %base = mul i32 %block, 256
  %id = add i32 %base, %thread
  %i = zext i32 %id to i64
  %inside = icmp ult i64 %i, %n
  br i1 %inside, label %body, label %done
body:
  %p = getelementptr float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %p
  %r = fmul float %v, %factor
  %q = getelementptr float, ptr addrspace(1) %out, i64 %i
  store float %r, ptr addrspace(1) %q
  br label %done
done:
  ret void
}

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workitem.id.x()
