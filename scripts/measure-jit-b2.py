#!/usr/bin/env python3
# Whether the driver's JIT and nvJitLink take a stray .b2 type on wmma.load
# and ldmatrix, beside the spellings without it and with .b4, on the GPU's
# own target at PTX 9.0 (reports/spec-measurements/tcgen05-spcompress/).
# Needs the CUDA driver and /usr/local/cuda-13.0's libnvJitLink; on a lent
# machine, where the working tree is not this one, pass it on stdin:
#   python3 - < scripts/measure-jit-b2.py
# One line per case and compiler: accepted, or the CUresult / nvJitLinkResult.
import ctypes as C
cu=C.CDLL("libcuda.so.1");cu.cuInit(0);d=C.c_int();cu.cuDeviceGet(C.byref(d),0)
a,b,v=C.c_int(),C.c_int(),C.c_int();cu.cuDeviceGetAttribute(C.byref(a),75,d);cu.cuDeviceGetAttribute(C.byref(b),76,d);cu.cuDriverGetVersion(C.byref(v))
t=f"sm_{a.value}{b.value}";print("driver API",v.value,t)
x=C.c_void_p();cu.cuDevicePrimaryCtxRetain(C.byref(x),d);cu.cuCtxSetCurrent(x)
W="wmma.load.a.sync.aligned.row.m16n16k16.";V=" {c0,c1,c2,c3,c4,c5,c6,c7}, [d0];"
S=[W+"f16"+V,W+"f16.b2"+V,W+"b2.f16"+V,"wmma.load.c.sync.aligned.row.m16n16k16.f32.b2"+V,W+"f16.b4"+V,
"ldmatrix.sync.aligned.m8n8.x1.b16 {c0}, [d0];","ldmatrix.sync.aligned.m8n8.x1.b16.b2 {c0}, [d0];","ldmatrix.sync.aligned.m8n8.x1.b2.b16 {c0}, [d0];"]
P=lambda s:(".version 9.0\n.target %s\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 c<8>;\n.reg .b64 d<2>;\n%s\nret;\n}\n"%(t,s)).encode()
for s in S:
 h=C.c_void_p();r=cu.cuModuleLoadData(C.byref(h),P(s)+b"\0");print("driver JIT\tPTX 9.0 "+t+"\t"+s+"\t"+("accepted" if r==0 else "error %d"%r))
L=C.CDLL("/usr/local/cuda-13.0/lib64/libnvJitLink.so");M,N=C.c_uint(),C.c_uint();L.nvJitLinkVersion(C.byref(M),C.byref(N))
for s in S:
 h=C.c_void_p();o=(C.c_char_p*1)(("-arch="+t).encode());L.nvJitLinkCreate(C.byref(h),1,o);p=P(s)
 r=L.nvJitLinkAddData(h,2,p,len(p),b"k.ptx") or L.nvJitLinkComplete(h);L.nvJitLinkDestroy(C.byref(h))
 print("nvJitLink %d.%d\tPTX 9.0 %s\t%s\t%s"%(M.value,N.value,t,s,"accepted" if r==0 else "error %d"%r))
