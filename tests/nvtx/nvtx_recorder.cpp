// An NVTX injection library (loaded by NVTX when NVTX_INJECTION64_PATH names it) that records the
// ranges and markers of the process in memory, so that tests can check what cupp::profiler and
// CUPP_NVTX_OPS emit without a profiler and without a GPU. Each event is one line:
//   "push <message> color=<0xAARRGGBB|none> payload=<value|none>", "pop", "mark <message> ...".
// The test reads them through cupp_nvtx_recorded() (dlsym on this already loaded library).
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace {

std::mutex lock;
std::vector<std::string> events;
std::string joined;

std::string describe(const char* kind, const nvtxEventAttributes_t* a) {
  std::string line = std::string(kind) + " ";
  if (a == nullptr) return line + "(null)";
  if (a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii != nullptr) line += a->message.ascii;
  char buf[64];
  if (a->colorType == NVTX_COLOR_ARGB) {
    std::snprintf(buf, sizeof buf, " color=0x%08X", a->color);
    line += buf;
  } else {
    line += " color=none";
  }
  switch (a->payloadType) {
    case NVTX_PAYLOAD_TYPE_INT64: line += " payload=" + std::to_string(a->payload.llValue); break;
    case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64: line += " payload=" + std::to_string(a->payload.ullValue); break;
    case NVTX_PAYLOAD_TYPE_DOUBLE:
      std::snprintf(buf, sizeof buf, " payload=%g", a->payload.dValue);
      line += buf;
      break;
    default: line += " payload=none";
  }
  return line;
}

void record(std::string line) {
  const std::lock_guard guard(lock);
  events.push_back(std::move(line));
}

int NVTX_API range_push_ex(const nvtxEventAttributes_t* a) {
  record(describe("push", a));
  return 0;
}
int NVTX_API range_push_a(const char* message) {
  record(std::string("push ") + (message ? message : "") + " color=none payload=none");
  return 0;
}
int NVTX_API range_pop() {
  record("pop");
  return 0;
}
void NVTX_API mark_ex(const nvtxEventAttributes_t* a) { record(describe("mark", a)); }

}  // namespace

extern "C" {

// NVTX's entry point: replaces the core functions it records with ours.
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr) return 0;
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) || table == nullptr) return 0;
  auto set = [&](unsigned id, NvtxFunctionPointer f) {
    if (id <= size && table[id] != nullptr) *table[id] = f;
  };
  set(NVTX_CBID_CORE_RangePushEx, reinterpret_cast<NvtxFunctionPointer>(&range_push_ex));
  set(NVTX_CBID_CORE_RangePushA, reinterpret_cast<NvtxFunctionPointer>(&range_push_a));
  set(NVTX_CBID_CORE_RangePop, reinterpret_cast<NvtxFunctionPointer>(&range_pop));
  set(NVTX_CBID_CORE_MarkEx, reinterpret_cast<NvtxFunctionPointer>(&mark_ex));
  return 1;
}

// Every event so far, one per line; `clear` empties the record after reading it.
__attribute__((visibility("default"))) const char* cupp_nvtx_recorded(int clear) {
  const std::lock_guard guard(lock);
  joined.clear();
  for (const std::string& e : events) joined += e + "\n";
  if (clear) events.clear();
  return joined.c_str();
}

}  // extern "C"
