#include "harness/families/thread_window.h"

#include <utility>

namespace matload {
namespace {

// Kept is the calling thread's window between predictions.
std::vector<std::uint8_t>& Kept() {
  thread_local std::vector<std::uint8_t> kept;
  return kept;
}

}  // namespace

ThreadWindow::ThreadWindow(std::vector<std::uint8_t>& space, size_t bytes) : space_(space) {
  space_ = std::move(Kept());
  space_.resize(bytes);
}

ThreadWindow::~ThreadWindow() { Kept() = std::move(space_); }

}  // namespace matload
