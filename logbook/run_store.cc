#include "logbook/run_store.h"

namespace moelog::logbook {

struct RunStore::Impl {};
RunStore::RunStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RunStore::~RunStore() = default;
Result<std::unique_ptr<RunStore>> RunStore::Open(const std::string&, int) {
  return Status::NotSupported("run store: not implemented yet");
}
Result<int> RunStore::SchemaVersion() { return Status::NotSupported("run store: not implemented yet"); }
Status RunStore::Insert(std::vector<RunRecord>*) { return Status::NotSupported("run store: not implemented yet"); }
Status RunStore::Insert(RunRecord*) { return Status::NotSupported("run store: not implemented yet"); }
Result<std::vector<RunRecord>> RunStore::Query(const RunQuery&) { return Status::NotSupported("run store: not implemented yet"); }
Result<std::vector<RunRecord>> RunStore::ByEntry(const std::string&) { return Status::NotSupported("run store: not implemented yet"); }
Result<std::vector<RunRecord>> RunStore::ByCacheKey(const std::string&) { return Status::NotSupported("run store: not implemented yet"); }
Result<std::vector<RunRecord>> RunStore::CachedRuns(const std::string&) { return Status::NotSupported("run store: not implemented yet"); }
Result<int64_t> RunStore::DeleteEntry(const std::string&) { return Status::NotSupported("run store: not implemented yet"); }
std::string DefaultStorePath(const std::string& logbook_path) {
  auto pos = logbook_path.find_last_of('/');
  return (pos == std::string::npos ? std::string() : logbook_path.substr(0, pos + 1)) + ".moelog/runs.db";
}
std::string ModelVersionTag(const engine::BenchConfig& c) { return c.target; }
std::string CacheKey(const engine::BenchConfig& c) { return engine::CanonicalConfigJson(c); }
std::string Sha256Hex(const std::string&) { return ""; }

}  // namespace moelog::logbook
