// Standalone reproducer written by matload for:
//   wmma.load.a.sync.aligned.row.m16n16k16.shared.s8 [32-bit address]
// Build and run in this directory:
//   g++ -std=c++17 -I$CUDA_HOME/include repro.cpp -o repro -lcuda && ./repro
// It loads kernel.cubin where the bundle has one (a case of an offline
// compile path, ptxas or nvJitLink), else JIT-compiles kernel.ptx with the
// CUDA driver, runs one block of 32
// threads with record.bin as its record, and compares every output byte
// with expected.bin (the reference model's registers, lane-major). It
// prints PASS (exit 0) or FAIL (exit 1).
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

static std::vector<unsigned char> ReadFile(const char* path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::printf("cannot read %s\n", path);
    std::exit(2);
  }
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(file), {});
}

static void Check(CUresult result, const char* what, const char* log = "") {
  if (result == CUDA_SUCCESS) return;
  const char* name = "?";
  cuGetErrorName(result, &name);
  std::printf("FAIL: %s: %s %s\n", what, name, log);
  std::exit(1);
}

int main() {
  const bool cubin = std::ifstream("kernel.cubin").good();
  std::vector<unsigned char> image = ReadFile(cubin ? "kernel.cubin" : "kernel.ptx");
  image.push_back(0);
  const std::vector<unsigned char> record = ReadFile("record.bin");
  const std::vector<unsigned char> expected = ReadFile("expected.bin");
  const size_t scratch_bytes = 16384;
  const size_t output_bytes = 256;
  Check(cuInit(0), "cuInit");
  CUdevice device;
  Check(cuDeviceGet(&device, 0), "cuDeviceGet");
  CUcontext context;
  Check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  Check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  char log[8192] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(sizeof(log))};
  CUmodule module;
  Check(cuModuleLoadDataEx(&module, image.data(), 2, options, values), "cuModuleLoadDataEx", log);
  CUfunction function;
  Check(cuModuleGetFunction(&function, module, "matload_wmma_load"), "cuModuleGetFunction");
  CUdeviceptr records, scratch, out;
  Check(cuMemAlloc(&records, record.size()), "cuMemAlloc");
  Check(cuMemAlloc(&scratch, scratch_bytes), "cuMemAlloc");
  Check(cuMemAlloc(&out, output_bytes), "cuMemAlloc");
  Check(cuMemcpyHtoD(records, record.data(), record.size()), "cuMemcpyHtoD");
  Check(cuMemsetD8(out, 0xA5, output_bytes), "cuMemsetD8");  // poison: words never stored stay 0xA5A5A5A5
  void* parameters[] = {&records, &scratch, &out};
  Check(cuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, nullptr, parameters, nullptr), "cuLaunchKernel");
  Check(cuCtxSynchronize(), "cuCtxSynchronize");
  std::vector<unsigned char> actual(output_bytes);
  Check(cuMemcpyDtoH(actual.data(), out, output_bytes), "cuMemcpyDtoH");
  if (expected.size() != actual.size()) {
    std::printf("FAIL: expected.bin holds %zu bytes, the kernel writes %zu\n", expected.size(), actual.size());
    return 1;
  }
  const size_t lane_words = output_bytes / 4 / 32;
  int differing = 0;
  for (size_t word = 0; word < output_bytes / 4; ++word) {
    uint32_t want = 0, got = 0;
    for (int b = 3; b >= 0; --b) {
      want = want << 8 | expected[4 * word + b];
      got = got << 8 | actual[4 * word + b];
    }
    if (want == got) continue;
    if (++differing <= 8) {
      std::printf("lane %zu word %zu: expected %08x, got %08x\n", word / lane_words, word % lane_words, want, got);
    }
  }
  if (differing > 0) {
    std::printf("FAIL: %d of %zu register words differ\n", differing, output_bytes / 4);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
