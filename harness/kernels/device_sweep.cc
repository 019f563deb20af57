#include "harness/kernels/device_sweep.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "harness/kernels/data_pattern.h"
#include "harness/kernels/kernel_text.h"
#include "harness/platform/split_mix64.h"

namespace matload {
namespace {

// ChunkTable is the module-scope table of the plan's chunks (PlanChunkBytes):
// per lane, per chunk in destination order, line << 16 | byte.
std::string ChunkTablePtx(const LoadPlan& plan, int chunk, absl::string_view entry) {
  std::string ptx = absl::StrCat(".global .align 4 .u32 ", entry, "_chunks[", plan.bytes.size() / chunk, "] = {");
  for (size_t i = 0; i < plan.bytes.size(); i += chunk) {
    absl::StrAppend(&ptx, i == 0 ? "" : ", ",
                    (static_cast<std::uint32_t>(plan.bytes[i].line) << 16) | plan.bytes[i].byte);
  }
  return ptx + "};\n\n";
}

// SkipCounterPtx sets the .u64 registers `count_at` and `first_at` to
// where the block's counters of fault class `fault_class` (a .u32
// register) lie in shared memory.
std::string SkipCounterPtx(absl::string_view fault_class, absl::string_view count_at, absl::string_view first_at) {
  return absl::StrCat("  mul.wide.u32 ", count_at, ", ", fault_class, ", 8;\n  mov.u64 ", first_at, ", skip_first;\n",
                      "  add.u64 ", first_at, ", ", first_at, ", ", count_at, ";\n  mov.u64 %at, skip_count;\n",
                      "  add.u64 ", count_at, ", ", count_at, ", %at;\n");
}

// ClearSkipsPtx zeroes the block's skip counters: thread t those of fault
// class t. The first bar.sync of the window loop, or of SWEEP_DONE in a
// block with no window, comes before any other thread uses them.
std::string ClearSkipsPtx() {
  static_assert(32 * kSweepWarps >= kSweepFaultClasses, "a thread for each fault class");
  return absl::StrCat(
      "  {\n  .reg .b32 %clear_class;\n  .reg .b64 %clear_count, %clear_first;\n",
      "  .reg .pred %clear_none;\n  mov.u32 %clear_class, %tid.x;\n", "  setp.ge.u32 %clear_none, %clear_class, ",
      kSweepFaultClasses, ";\n", "  @%clear_none bra SWEEP_CLEARED;\n",
      SkipCounterPtx("%clear_class", "%clear_count", "%clear_first"),
      "  st.shared.u64 [%clear_count], 0;\n  st.shared.u64 [%clear_first], 0;\n", "SWEEP_CLEARED:\n  }\n");
}

// SkipPtx skips a variant whose fault class the request skips: lane 0
// counts it and keeps the complement of its index, so that the largest
// complement names the first skipped.
std::string SkipPtx() {
  return absl::StrCat(
      "  {\n  .reg .b64 %skip_bit, %skip_count_at, %skip_first_at, %skip_first;\n",
      "  .reg .pred %skipped, %skip_lane;\n  shr.b64 %skip_bit, %skip_mask, %fault_class;\n",
      "  and.b64 %skip_bit, %skip_bit, 1;\n  setp.ne.u64 %skipped, %skip_bit, 0;\n",
      "  @!%skipped bra SWEEP_RUN;\n  setp.eq.u32 %skip_lane, %lane, 0;\n",
      SkipCounterPtx("%fault_class", "%skip_count_at", "%skip_first_at"), "  not.b64 %skip_first, %sweep_index;\n",
      "  @%skip_lane red.shared.add.u64 [%skip_count_at], 1;\n",
      "  @%skip_lane red.shared.max.u64 [%skip_first_at], %skip_first;\n", "  bra SWEEP_STEP;\nSWEEP_RUN:\n  }\n");
}

// FlushSkipsPtx adds the block's skip counters to the output's, thread t
// those of fault class t, once every warp of the block is done.
std::string FlushSkipsPtx() {
  return absl::StrCat(
      "  bar.sync 0;\n  {\n  .reg .b32 %flush_class;\n",
      "  .reg .b64 %flush_count_at, %flush_first_at, %flush_count, %flush_first, %flush_out;\n",
      "  .reg .pred %flush_none;\n  mov.u32 %flush_class, %tid.x;\n", "  setp.ge.u32 %flush_none, %flush_class, ",
      kSweepFaultClasses, ";\n", "  @%flush_none bra SWEEP_FLUSHED;\n",
      SkipCounterPtx("%flush_class", "%flush_count_at", "%flush_first_at"),
      "  ld.shared.u64 %flush_count, [%flush_count_at];\n",
      "  setp.eq.u64 %flush_none, %flush_count, 0;\n  @%flush_none bra SWEEP_FLUSHED;\n",
      "  ld.shared.u64 %flush_first, [%flush_first_at];\n",
      "  mul.wide.u32 %flush_out, %flush_class, 16;\n  add.u64 %flush_out, %flush_out, %out;\n",
      "  red.global.add.u64 [%flush_out+", kSweepSkipsAt, "], %flush_count;\n", "  red.global.max.u64 [%flush_out+",
      kSweepSkipsAt + 8, "], %flush_first;\n", "SWEEP_FLUSHED:\n  }\n");
}

// SweepPrologue opens the kernel: its parameters and registers, the
// request's fields, the windows' addresses, and this lane's chunks of the
// plan in registers %chunk_line<k> and %chunk_byte<k>, which every
// variant uses.
std::string SweepPrologue(const CheckedInstruction& instruction, absl::string_view entry, const LoadPlan& plan,
                          int chunk, const SweepFamilyPtx& family) {
  const int chunks = plan.words_per_lane * 4 / chunk;
  std::string ptx = absl::StrCat(
      ".version ", instruction.ptx().ToString(), "\n.target ", instruction.target().Name(), "\n.address_size 64\n\n",
      ChunkTablePtx(plan, chunk, entry), ".visible .entry ", entry,
      "(.param .u64 sweep, .param .u64 scratch, .param .u64 out)\n{\n",
      family.shared_window ? absl::StrCat("  .shared .align 128 .b8 window[", family.window_bytes, "];\n") : "",
      "  .shared .align 8 .u64 skip_count[", kSweepFaultClasses, "];\n  .shared .align 8 .u64 skip_first[",
      kSweepFaultClasses, "];\n",
      "  .reg .b32 %lane, %warp, %slots, %operand, %agreed, %disagreed, %sm, %pattern, %j, %j_low, %j_high,",
      " %j_first, %j_sample, %judge_line, %judge_at, %fault_class, %key_lane, %key_half<2>;\n", "  .reg .b",
      family.register_bits, " %v<", family.registers, ">;\n  .reg .b32 %chunk_line<", chunks, ">, %chunk_byte<", chunks,
      ">;\n",
      "  .reg .b64 %request, %out, %window, %global_window, %seed, %first, %end, %group, %last_group, %wstream,",
      " %sweep_index, %sweep_key, %lane_key, %at, %window_first, %key_base, %skip_mask;\n",
      "  .reg .pred %done, %skip;\n", "  ld.param.u64 %request, [sweep];\n  cvta.to.global.u64 %request, %request;\n",
      "  ld.param.u64 %out, [out];\n  cvta.to.global.u64 %out, %out;\n",
      "  ld.global.u64 %seed, [%request];\n  ld.global.u64 %first, [%request+8];\n",
      "  ld.global.u64 %end, [%request+16];\n  ld.global.u32 %slots, [%request+24];\n",
      "  ld.global.u64 %skip_mask, [%request+32];\n", ClearSkipsPtx(),
      family.shared_window ? "  mov.u64 %window, window;\n  cvta.shared.u64 %window, %window;\n" : "",
      "  ld.param.u64 %global_window, [scratch];\n  mov.u32 %j, %ctaid.x;\n  mul.wide.u32 %at, %j, ",
      family.window_bytes, ";\n  add.u64 %global_window, %global_window, %at;\n",
      "  mov.u32 %lane, %laneid;\n  mov.u32 %warp, %tid.x;\n  shr.u32 %warp, %warp, 5;\n",
      "  mov.u32 %sm, %smid;\n  mov.u32 %agreed, 0;\n  mov.u32 %disagreed, 0;\n  mov.u32 %pattern, ",
      static_cast<std::uint32_t>(DataPattern::kRandom), ";\n", "  mov.u64 %at, ", entry, "_chunks;\n",
      "  mul.wide.u32 %sweep_index, %lane, ", chunks * 4, ";\n  add.u64 %at, %at, %sweep_index;\n");
  for (int k = 0; k < chunks; ++k) {
    absl::StrAppend(&ptx, "  ld.global.nc.u32 %chunk_byte", k, ", [%at+", 4 * k, "];\n", "  shr.u32 %chunk_line", k,
                    ", %chunk_byte", k, ", 16;\n  and.b32 %chunk_byte", k, ", %chunk_byte", k, ", 65535;\n");
  }
  // Windows first / 64 .. (end - 1) / 64, this block's from its own.
  return absl::StrCat(ptx, "  div.u64 %group, %first, ", kVariantsPerWindow, ";\n  sub.u64 %last_group, %end, 1;\n",
                      "  div.u64 %last_group, %last_group, ", kVariantsPerWindow, ";\n",
                      "  cvt.u64.u32 %at, %ctaid.x;\n  add.u64 %group, %group, %at;\n");
}

// WindowPtx fills the block's windows for window %group: WindowStream.
std::string WindowPtx(const SweepFamilyPtx& family) {
  constexpr int kThreads = 32 * kSweepWarps;
  return absl::StrCat(
      "  not.b64 %wstream, %seed;\n  add.u64 %at, %group, 1;\n  mul.lo.u64 %at, %at, ", kSplitMix64Gamma,
      ";\n  add.u64 %wstream, %wstream, %at;\n", SplitMix64OutputPtx("%wstream", "%wstream"), "  bar.sync 0;\n",
      family.shared_window ? FillWindowPtx("%window", family.window_bytes, "%pattern", "%wstream", kThreads) : "",
      family.global_window
          ? absl::StrReplaceAll(FillWindowPtx("%global_window", family.window_bytes, "%pattern", "%wstream", kThreads),
                                {{"FILL", "FILL_GLOBAL"}})
          : "",
      "  bar.sync 0;\n");
}

// WindowBoundsPtx sets, for window %group, the variants j (0..63, index
// %window_first + j) that run, [%j_low, %j_high): those in [first, end);
// %j_first, the j of the request's first variant (64 when it is in another
// window); %j_sample, 0 when the window's first variant is a multiple of
// kSampleEvery (64 when not); and %key_base, the key's state of j = 0.
std::string WindowBoundsPtx() {
  static_assert(kSampleEvery % kVariantsPerWindow == 0, "a sampled variant is a window's first");
  return absl::StrCat("  {\n  .reg .b64 %bound;\n  .reg .pred %inside;\n  mul.lo.u64 %window_first, %group, ",
                      kVariantsPerWindow,
                      ";\n  max.u64 %bound, %first, %window_first;\n  sub.u64 %bound, %bound, %window_first;\n",
                      "  cvt.u32.u64 %j_low, %bound;\n  mov.u32 %j_first, ", kVariantsPerWindow, ";\n",
                      "  setp.ge.u64 %inside, %first, %window_first;\n  @%inside mov.u32 %j_first, %j_low;\n",
                      "  sub.u64 %bound, %end, %window_first;\n  min.u64 %bound, %bound, ", kVariantsPerWindow, ";\n",
                      "  cvt.u32.u64 %j_high, %bound;\n  and.b64 %bound, %window_first, ", kSampleEvery - 1, ";\n",
                      "  setp.eq.u64 %inside, %bound, 0;\n  selp.u32 %j_sample, 0, ", kVariantsPerWindow,
                      ", %inside;\n", "  add.u64 %key_base, %window_first, 1;\n  mul.lo.u64 %key_base, %key_base, ",
                      kSplitMix64Gamma, ";\n", "  add.u64 %key_base, %key_base, %seed;\n  }\n");
}

// WarpKeysPtx has lane L of each warp mix the key of the warp's variant
// j = warp + L * kSweepWarps of the window into %lane_key, and sets
// %key_lane to 0, the lane that holds the warp's first variant's key: a
// variant's key is the same for every lane, so the warp mixes its
// window's keys once, a lane each, and each variant takes its own with a
// shuffle (KeyOfVariantPtx). ldmatrix.x4's sweep takes 19 SASS
// instructions fewer a variant than when every lane mixed every key, of
// 185 (reports/bench/sweep-keys-h200-2026-11-29/).
std::string WarpKeysPtx() {
  static_assert(kVariantsPerWindow / kSweepWarps <= kWarpLanes, "a lane for each of a warp's variants");
  return absl::StrCat("  mad.lo.u32 %key_lane, %lane, ", kSweepWarps, ", %warp;\n",
                      "  cvt.u64.u32 %lane_key, %key_lane;\n  mul.lo.u64 %lane_key, %lane_key, ", kSplitMix64Gamma,
                      ";\n  add.u64 %lane_key, %lane_key, %key_base;\n", SplitMix64OutputPtx("%lane_key", "%lane_key"),
                      "  mov.u32 %key_lane, 0;\n");
}

// KeyOfVariantPtx sets %sweep_key to the key of the warp's variant j, which
// lane %key_lane mixed (WarpKeysPtx).
std::string KeyOfVariantPtx() {
  return "  mov.b64 {%key_half0, %key_half1}, %lane_key;\n"
         "  shfl.sync.idx.b32 %key_half0, %key_half0, %key_lane, 31, -1;\n"
         "  shfl.sync.idx.b32 %key_half1, %key_half1, %key_lane, 31, -1;\n"
         "  mov.b64 %sweep_key, {%key_half0, %key_half1};\n";
}

// WordWantPtx sets %judge_want to destination word `word` as the plan
// says: each chunk's data word computed from where its line starts (the
// family's line_start) and the window's stream.
std::string WordWantPtx(int word, int chunk, const SweepFamilyPtx& family) {
  std::string ptx = "  mov.b32 %judge_want, 0;\n";
  const int per_word = 4 / chunk;
  for (int part = 0; part < per_word; ++part) {
    const int k = word * per_word + part;
    absl::StrAppend(&ptx, "  mov.u32 %judge_line, %chunk_line", k, ";\n", family.line_start,
                    "  add.u32 %judge_at, %judge_at, %chunk_byte", k, ";\n  {\n  .reg .b32 %judge_index;\n",
                    "  shr.u32 %judge_index, %judge_at, 2;\n", RandomWordPtx("%judge_index", "%wstream", "%judge_data"),
                    "  }\n");
    if (chunk < 4) {
      absl::StrAppend(&ptx, "  and.b32 %judge_at, %judge_at, 3;\n  shl.b32 %judge_at, %judge_at, 3;\n",
                      "  shr.b32 %judge_data, %judge_data, %judge_at;\n  and.b32 %judge_data, %judge_data, ",
                      (1u << (8 * chunk)) - 1, ";\n  shl.b32 %judge_data, %judge_data, ", 8 * chunk * part, ";\n");
    }
    absl::StrAppend(&ptx, "  or.b32 %judge_want, %judge_want, %judge_data;\n");
  }
  return ptx;
}

// PairedWantsPtx sets %judge_want to destination word `word` and
// %judge_other_want to word `other`, where neighbouring lanes split the
// window's 64-bit words (SplitsPairs): an even lane mixes the 64-bit word
// its `word` lies in, an odd lane the one its `other` lies in, and each
// keeps its own half and passes the other half to its neighbour, so that a
// lane makes one mix for two words.
std::string PairedWantsPtx(int word, int other, const SweepFamilyPtx& family) {
  return absl::StrCat(
      "  {\n  .reg .b32 %paired_byte, %paired_kept, %paired_passed, %paired_low, %paired_high;\n",
      "  .reg .b64 %paired_data;\n  selp.u32 %judge_line, %chunk_line", word, ", %chunk_line", other,
      ", %judge_even;\n", family.line_start, "  selp.u32 %paired_byte, %chunk_byte", word, ", %chunk_byte", other,
      ", %judge_even;\n  add.u32 %judge_at, %judge_at, %paired_byte;\n  shr.u32 %judge_at, %judge_at, 3;\n",
      RandomPairPtx("%judge_at", "%wstream", "%paired_data"), "  mov.b64 {%paired_low, %paired_high}, %paired_data;\n",
      "  selp.b32 %paired_kept, %paired_low, %paired_high, %judge_even;\n",
      "  selp.b32 %paired_passed, %paired_high, %paired_low, %judge_even;\n",
      "  shfl.sync.bfly.b32 %paired_passed, %paired_passed, 1, 31, -1;\n",
      "  selp.b32 %judge_want, %paired_kept, %paired_passed, %judge_even;\n",
      "  selp.b32 %judge_other_want, %paired_passed, %paired_kept, %judge_even;\n  }\n");
}

// SplitsPairs says whether a sweep kernel has neighbouring lanes split the
// window's 64-bit words: the plan has them read one aligned 8-byte run of a
// line each time (PlanNeighbourLanesSplitPairs), and every line starts at
// a multiple of 8. Were a family's line_alignment wrong, the device would
// call right variants wrong, and the host's judging of them would stop the
// run as the checker's error (device_sweep_run.h), never a finding.
bool SplitsPairs(const LoadPlan& plan, const SweepFamilyPtx& family) {
  return family.line_alignment % 8 == 0 && PlanNeighbourLanesSplitPairs(plan);
}

// CompareWordPtx adds to %judge_bad the bits in which destination word
// `word` differs from `want` (which it spoils): 64-bit registers are
// compared a 32-bit half at a time, low half first. The planted
// kMisjudgingChecker expects word 0 one bit off.
std::string CompareWordPtx(int word, absl::string_view want, const SweepFamilyPtx& family, PlantedBug bug) {
  std::string ptx;
  if (word == 0 && bug == PlantedBug::kMisjudgingChecker) {
    absl::StrAppend(&ptx, "  xor.b32 ", want, ", ", want, ", 1;\n");
  }
  std::string got = absl::StrCat("%v", word);
  if (family.register_bits == 64) {
    absl::StrAppend(&ptx, "  mov.b64 {%judge_half0, %judge_half1}, %v", word / 2, ";\n");
    got = absl::StrCat("%judge_half", word % 2);
  }
  return absl::StrCat(ptx, "  xor.b32 ", want, ", ", want, ", ", got, ";\n", "  or.b32 %judge_bad, %judge_bad, ", want,
                      ";\n");
}

// JudgePtx sets %warp_bad where any lane's registers differ from the
// plan's words. Where neighbouring lanes split the window's 64-bit words,
// words w and w + words / 2 are made together (PairedWantsPtx), and an odd
// count's last word alone.
std::string JudgePtx(const LoadPlan& plan, int chunk, const SweepFamilyPtx& family, PlantedBug bug) {
  std::string ptx =
      "  .reg .b32 %judge_data, %judge_want, %judge_other_want, %judge_bad, %judge_half<2>, %judge_parity;\n"
      "  .reg .pred %judge_lane_bad, %warp_bad, %judge_even;\n  mov.b32 %judge_bad, 0;\n";
  const int paired = SplitsPairs(plan, family) ? plan.words_per_lane / 2 : 0;
  if (paired > 0) {
    absl::StrAppend(&ptx, kSplitPairsNote, "  and.b32 %judge_parity, %lane, 1;\n",
                    "  setp.eq.u32 %judge_even, %judge_parity, 0;\n");
  }
  for (int word = 0; word < paired; ++word) {
    absl::StrAppend(&ptx, PairedWantsPtx(word, word + paired, family), CompareWordPtx(word, "%judge_want", family, bug),
                    CompareWordPtx(word + paired, "%judge_other_want", family, bug));
  }
  for (int word = 2 * paired; word < plan.words_per_lane; ++word) {
    absl::StrAppend(&ptx, WordWantPtx(word, chunk, family), CompareWordPtx(word, "%judge_want", family, bug));
  }
  return ptx +
         "  setp.ne.u32 %judge_lane_bad, %judge_bad, 0;\n"
         "  vote.sync.any.pred %warp_bad, %judge_lane_bad, 0xffffffff;\n";
}

// KeepPtx counts the verdict and, for a variant that disagrees or is
// sampled, claims a slot and writes it.
std::string KeepPtx(const SweepFamilyPtx& family, PlantedBug bug) {
  const size_t output_bytes = static_cast<size_t>(kWarpLanes) * family.registers * family.register_bits / 8;
  return absl::StrCat(
      "  .reg .b32 %slot, %verdict;\n  .reg .b64 %slot_at, %lane_at;\n  .reg .pred %keep, %first_lane, %room;\n",
      "  selp.u32 %verdict, ", static_cast<std::uint32_t>(DeviceVerdict::kDisagree), ", ",
      static_cast<std::uint32_t>(DeviceVerdict::kAgree), ", %warp_bad;\n",
      "  selp.u32 %slot, 1, 0, %warp_bad;\n  add.u32 %disagreed, %disagreed, %slot;\n",
      "  selp.u32 %slot, 0, 1, %warp_bad;\n  add.u32 %agreed, %agreed, %slot;\n",
      "  setp.eq.u32 %keep, %j, %j_sample;\n  setp.eq.or.u32 %keep, %j, %j_first, %keep;\n",
      "  or.pred %keep, %keep, %warp_bad;\n", "  @!%keep bra SWEEP_STEP;\n  setp.eq.u32 %first_lane, %lane, 0;\n",
      "  @%first_lane atom.global.add.u32 %slot, [%out+16], 1;\n  shfl.sync.idx.b32 %slot, %slot, 0, 31, -1;\n",
      "  setp.lt.u32 %room, %slot, %slots;\n  @!%room bra SWEEP_STEP;\n", "  mul.wide.u32 %slot_at, %slot, ",
      SweepSlotBytes(output_bytes), ";\n  add.u64 %slot_at, %slot_at, %out;\n  add.u64 %slot_at, %slot_at, ",
      kSweepSlotsAt, ";\n", "  shl.b32 %slot, %sm, 8;\n  or.b32 %verdict, %verdict, %slot;\n",
      "  @%first_lane st.global.u64 [%slot_at], %sweep_index;\n",
      "  @%first_lane st.global.u32 [%slot_at+8], %verdict;\n  mul.wide.u32 %lane_at, %lane, 4;\n",
      "  add.u64 %lane_at, %lane_at, %slot_at;\n  st.global.u32 [%lane_at+", kSweepSlotHeaderBytes, "], %operand;\n",
      "  add.u64 %slot_at, %slot_at, ", kSweepSlotHeaderBytes + 4 * kWarpLanes, ";\n",
      StoreRegistersPtx(family.registers, family.register_bits, bug, "%slot_at"));
}

// SweepEpilogue adds the block's skip counters to the output's, and its
// counts, its own SM's among them, once per warp.
std::string SweepEpilogue() {
  return absl::StrCat("SWEEP_DONE:\n", FlushSkipsPtx(), "  {\n  .reg .pred %first_lane;\n  .reg .b64 %count, %sm_at;\n",
                      "  setp.eq.u32 %first_lane, %lane, 0;\n  @!%first_lane ret;\n",
                      "  cvt.u64.u32 %count, %agreed;\n  atom.global.add.u64 %count, [%out], %count;\n",
                      "  cvt.u64.u32 %count, %disagreed;\n  atom.global.add.u64 %count, [%out+8], %count;\n",
                      "  mul.wide.u32 %sm_at, %sm, 8;\n  add.u64 %sm_at, %sm_at, %out;\n",
                      "  add.u32 %agreed, %agreed, %disagreed;\n", "  atom.global.add.u32 %agreed, [%sm_at+",
                      kSweepSmCountsAt, "], %agreed;\n", "  atom.global.add.u32 %disagreed, [%sm_at+",
                      kSweepSmCountsAt + 4, "], %disagreed;\n  }\n  ret;\n}\n");
}

}  // namespace

std::string KeyDrawPtx(absl::string_view key, absl::string_view k, absl::string_view output) {
  return absl::StrCat("  {\n  .reg .b32 %draw_k;\n  .reg .b64 %draw_state;\n  add.u32 %draw_k, ", k, ", 1;\n",
                      "  cvt.u64.u32 %draw_state, %draw_k;\n  mul.lo.u64 %draw_state, %draw_state, ", kSplitMix64Gamma,
                      ";\n  add.u64 %draw_state, %draw_state, ", key, ";\n", SplitMix64OutputPtx("%draw_state", output),
                      "  }\n");
}

std::string SweepEntry(absl::string_view kernel_entry) { return absl::StrCat(kernel_entry, "_sweep"); }

void WriteSweepRequest(const SweepRequest& request, absl::Span<std::uint8_t> bytes) {
  StoreLittleEndian(request.seed, bytes.subspan(0, 8));
  StoreLittleEndian(request.first, bytes.subspan(8, 8));
  StoreLittleEndian(request.end, bytes.subspan(16, 8));
  StoreLittleEndian(request.slots, bytes.subspan(24, 8));
  StoreLittleEndian(request.skipped_classes, bytes.subspan(32, 8));
}

std::string SweepKernelPtx(const CheckedInstruction& instruction, absl::string_view entry, const LoadPlan& plan,
                           const SweepFamilyPtx& family, PlantedBug bug) {
  const int chunk = PlanChunkBytes(plan);
  return absl::StrCat(SweepPrologue(instruction, entry, plan, chunk, family),
                      // One window after another, this block's.
                      "SWEEP_GROUP:\n  setp.gt.u64 %done, %group, %last_group;\n  @%done bra SWEEP_DONE;\n",
                      WindowPtx(family), WindowBoundsPtx(), WarpKeysPtx(), "  mov.u32 %j, %warp;\n",
                      // Each warp's variants of the window: index, key, draw, load, judge, keep.
                      "SWEEP_VARIANT:\n  setp.lt.u32 %skip, %j, %j_low;\n  setp.ge.or.u32 %skip, %j, %j_high, %skip;\n",
                      "  @%skip bra SWEEP_STEP;\n  {\n  cvt.u64.u32 %sweep_index, %j;\n",
                      "  add.u64 %sweep_index, %sweep_index, %window_first;\n", KeyOfVariantPtx(), family.draw,
                      SkipPtx(), family.load, JudgePtx(plan, chunk, family, bug), KeepPtx(family, bug),
                      "  }\nSWEEP_STEP:\n  add.u32 %j, %j, ", kSweepWarps, ";\n  add.u32 %key_lane, %key_lane, 1;\n",
                      "  setp.lt.u32 %skip, %j, ", kVariantsPerWindow, ";\n  @%skip bra SWEEP_VARIANT;\n",
                      "  cvt.u64.u32 %at, %nctaid.x;\n  add.u64 %group, %group, %at;\n  bra SWEEP_GROUP;\n",
                      SweepEpilogue());
}

}  // namespace matload
