// Replays fuzz inputs without libFuzzer: each argument is a file, or a
// directory whose files are replayed. Used by the default build and CI to
// keep every fuzz target and its corpus alive; campaigns use the fuzz preset.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " FILE_OR_DIRECTORY...\n";
    return 2;
  }
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::error_code error;
    if (std::filesystem::is_directory(argv[i], error)) {
      for (std::filesystem::directory_iterator entry(argv[i], error), end; !error && entry != end;
           entry.increment(error)) {
        inputs.push_back(entry->path());
      }
      if (error) {
        std::cerr << "replay: cannot read " << argv[i] << ": " << error.message() << "\n";
        return 2;
      }
    } else if (std::filesystem::exists(argv[i], error)) {
      inputs.push_back(argv[i]);
    } else {
      std::cerr << "replay: no such file or directory: " << argv[i] << "\n";
      return 2;
    }
  }
  for (const std::filesystem::path& path : inputs) {
    std::ifstream file(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::cout << "replayed " << inputs.size() << " inputs\n";
  return inputs.empty() ? 1 : 0;
}
