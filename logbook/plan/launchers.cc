#include "logbook/plan/launchers.h"

#include <unistd.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "logbook/file_util.h"

namespace moelog::logbook {
namespace {

// The defaults; data/launchers.json holds the same text (a test keeps them equal).
constexpr const char* kDefaultTable = R"JSON({
  "version": 1,
  "interpreters": [
    {"program": "uv", "subcommand": "run",
     "value_options": ["--package", "--extra", "--with", "--python", "--group", "--project", "--directory", "--env-file", "--index-url", "-p"],
     "switch_options": ["--no-sync", "--frozen", "--locked", "--isolated", "--all-extras", "--no-project", "--quiet", "-q", "--offline"],
     "optional_python": true},
    {"program": "python", "switch_options": ["-u", "-O", "-B"], "module_option": "-m"},
    {"program": "python3", "switch_options": ["-u", "-O", "-B"], "module_option": "-m"}
  ],
  "launchers": [
    {"name": "dev_tpu", "script": "scripts/ray/dev_tpu.py", "run_subcommand": "execute",
     "env_option": "-e", "env_option_aliases": ["--env"],
     "value_options": ["--config", "--tpu-name", "--tpu-type", "--zone", "--project", "--cluster", "--username", "--timeout"],
     "separator": "--"},
    {"name": "gcloud_ssh", "script": "gcloud", "run_subcommand": "ssh", "env_option": "", "separator": "",
     "command_option": "--command",
     "value_options": ["--zone", "--project", "--worker", "--ssh-key-file", "--ssh-flag", "--internal-ip", "--container"]},
    {"name": "ssh", "script": "ssh", "run_subcommand": "", "env_option": "", "separator": "", "host_first": true,
     "value_options": ["-i", "-p", "-o", "-l", "-F", "-J", "-L", "-R", "-D", "-W", "-b", "-c", "-E", "-e", "-m", "-S", "-w"]},
    {"name": "ray_job", "script": "ray", "run_subcommand": "submit", "env_option": "", "separator": "--",
     "value_options": ["--address", "--working-dir", "--runtime-env", "--runtime-env-json", "--submission-id",
                       "--entrypoint-num-cpus", "--entrypoint-num-gpus", "--entrypoint-memory", "--entrypoint-resources",
                       "--metadata-json", "--headers"]},
    {"name": "iris_job", "script": "iris", "run_subcommand": "run", "env_option": "-e", "env_option_aliases": ["--env"],
     "env_value_separate": true, "separator": "--",
     "value_options": ["--cluster", "--config", "--controller-url", "--job-name", "--user", "--cpu", "--memory", "--disk",
                       "--gpu", "--tpu", "--reserve", "--extra", "--region", "--zone", "--target-cluster", "--priority",
                       "--replicas", "--max-retries", "--timeout"]},
    {"name": "sbatch", "script": "sbatch", "run_subcommand": "", "env_option": "", "separator": "",
     "command_option": "--wrap", "rest_is_payload": true, "passes_env": true,
     "value_options": ["-N", "-n", "-c", "-p", "-t", "-J", "-o", "-e", "-A", "-q", "-w", "-G", "-C", "-D", "-a", "-d",
                       "--nodes", "--ntasks", "--ntasks-per-node", "--cpus-per-task", "--partition", "--time", "--job-name",
                       "--output", "--error", "--account", "--qos", "--nodelist", "--gpus", "--gpus-per-node", "--gres",
                       "--mem", "--constraint", "--chdir", "--array", "--dependency", "--export"]},
    {"name": "srun", "script": "srun", "run_subcommand": "", "env_option": "", "separator": "",
     "rest_is_payload": true, "passes_env": true,
     "value_options": ["-N", "-n", "-c", "-p", "-t", "-J", "-o", "-e", "-A", "-q", "-w", "-G", "-C", "-D",
                       "--nodes", "--ntasks", "--ntasks-per-node", "--cpus-per-task", "--partition", "--time", "--job-name",
                       "--output", "--error", "--account", "--qos", "--nodelist", "--gpus", "--gpus-per-node", "--gres",
                       "--mem", "--constraint", "--chdir", "--export", "--mpi", "--container-image", "--container-mounts"]},
    {"name": "timeout", "script": "timeout", "run_subcommand": "", "env_option": "", "separator": "",
     "rest_is_payload": true, "leading_words": 1, "passes_env": true,
     "value_options": ["-s", "-k", "--signal", "--kill-after"]},
    {"name": "nohup", "script": "nohup", "run_subcommand": "", "env_option": "", "separator": "",
     "rest_is_payload": true, "passes_env": true},
    {"name": "time", "script": "time", "run_subcommand": "", "env_option": "", "separator": "",
     "rest_is_payload": true, "passes_env": true, "value_options": ["-o", "-f", "--output", "--format"]},
    {"name": "nice", "script": "nice", "run_subcommand": "", "env_option": "", "separator": "",
     "rest_is_payload": true, "passes_env": true, "value_options": ["-n", "--adjustment"]},
    {"name": "stdbuf", "script": "stdbuf", "run_subcommand": "", "env_option": "", "separator": "",
     "rest_is_payload": true, "passes_env": true, "value_options": ["-i", "-o", "-e"]},
    {"name": "exec", "script": "exec", "run_subcommand": "", "env_option": "", "separator": "",
     "rest_is_payload": true, "passes_env": true, "value_options": ["-a"]},
    {"name": "torchrun", "script": "torchrun", "run_subcommand": "", "env_option": "", "separator": "",
     "rest_is_payload": true, "passes_env": true,
     "value_options": ["--nproc_per_node", "--nproc-per-node", "--nnodes", "--node_rank", "--node-rank", "--master_addr",
                       "--master-addr", "--master_port", "--master-port", "--rdzv_backend", "--rdzv-backend",
                       "--rdzv_endpoint", "--rdzv-endpoint", "--rdzv_id", "--rdzv-id", "--max_restarts", "--max-restarts",
                       "--log_dir", "--log-dir", "--role", "--local_addr", "--local-addr"]},
    {"name": "mpirun", "script": "mpirun", "run_subcommand": "", "env_option": "-x", "separator": "",
     "rest_is_payload": true, "passes_env": true,
     "value_options": ["-np", "-n", "-N", "--np", "-c", "-H", "--host", "-hostfile", "--hostfile", "-machinefile",
                       "--map-by", "--bind-to", "--rank-by", "-ppn", "--npernode", "-wdir", "--wdir"]},
    {"name": "mpiexec", "script": "mpiexec", "run_subcommand": "", "env_option": "-x", "separator": "",
     "rest_is_payload": true, "passes_env": true,
     "value_options": ["-np", "-n", "-N", "--np", "-c", "-H", "--host", "-hostfile", "--hostfile", "-machinefile",
                       "--map-by", "--bind-to", "--rank-by", "-ppn", "--npernode", "-wdir", "--wdir"]},
    {"name": "deepspeed", "script": "deepspeed", "run_subcommand": "", "env_option": "", "separator": "",
     "rest_is_payload": true, "passes_env": true,
     "value_options": ["--num_gpus", "--num_nodes", "--hostfile", "--include", "--exclude", "--master_port",
                       "--master_addr", "--launcher", "--module"]},
    {"name": "accelerate", "script": "accelerate", "run_subcommand": "launch", "env_option": "", "separator": "",
     "rest_is_payload": true, "passes_env": true,
     "value_options": ["--config_file", "--num_processes", "--num_machines", "--machine_rank", "--main_process_ip",
                       "--main_process_port", "--mixed_precision", "--gpu_ids", "--dynamo_backend"]},
    {"name": "docker_run", "script": "docker", "run_subcommand": "run", "env_option": "-e", "env_option_aliases": ["--env"],
     "separator": "", "rest_is_payload": true, "leading_words": 1,
     "value_options": ["-v", "--volume", "--name", "-w", "--workdir", "--gpus", "--shm-size", "--network", "--ipc",
                       "-u", "--user", "--entrypoint", "--runtime", "--ulimit", "--device", "-p", "--publish",
                       "--mount", "--env-file", "--cpus", "-m", "--memory", "--platform", "--pull"]}
  ]
}
)JSON";

// True when `path` ends with `suffix` at a path-component boundary
// ("lib/x/bench.py" ends with "bench.py" and "x/bench.py", not "ench.py").
bool PathEndsWith(const std::string& path, const std::string& suffix) {
  if (suffix.empty() || path.size() < suffix.size()) return false;
  if (path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
  if (path.size() == suffix.size()) return true;
  return path[path.size() - suffix.size() - 1] == '/';
}

std::string Basename(const std::string& p) {
  auto pos = p.find_last_of('/');
  return pos == std::string::npos ? p : p.substr(pos + 1);
}

Status GetString(const nlohmann::json& j, const char* key, const std::string& where, std::string* out,
                 bool required) {
  if (!j.contains(key)) {
    if (required) return Status::InvalidArgument(where + "." + key + ": missing");
    return Status::Ok();
  }
  if (!j[key].is_string()) return Status::InvalidArgument(where + "." + key + ": expected a string");
  *out = j[key].get<std::string>();
  return Status::Ok();
}

Status GetStrings(const nlohmann::json& j, const char* key, const std::string& where,
                  std::vector<std::string>* out) {
  if (!j.contains(key)) return Status::Ok();
  if (!j[key].is_array()) return Status::InvalidArgument(where + "." + key + ": expected an array of strings");
  for (const auto& v : j[key]) {
    if (!v.is_string()) return Status::InvalidArgument(where + "." + key + ": expected an array of strings");
    out->push_back(v.get<std::string>());
  }
  return Status::Ok();
}

Status GetBool(const nlohmann::json& j, const char* key, const std::string& where, bool* out) {
  if (!j.contains(key)) return Status::Ok();
  if (!j[key].is_boolean()) return Status::InvalidArgument(where + "." + key + ": expected true or false");
  *out = j[key].get<bool>();
  return Status::Ok();
}

Result<InterpreterSpec> ParseInterpreter(const nlohmann::json& e, const std::string& w) {
  InterpreterSpec s;
  MOELOG_RETURN_IF_ERROR(GetString(e, "program", w, &s.program, true));
  MOELOG_RETURN_IF_ERROR(GetString(e, "subcommand", w, &s.subcommand, false));
  MOELOG_RETURN_IF_ERROR(GetStrings(e, "value_options", w, &s.value_options));
  MOELOG_RETURN_IF_ERROR(GetStrings(e, "switch_options", w, &s.switch_options));
  MOELOG_RETURN_IF_ERROR(GetString(e, "module_option", w, &s.module_option, false));
  if (e.contains("optional_python")) {
    if (!e["optional_python"].is_boolean()) return Status::InvalidArgument(w + ".optional_python: expected a boolean");
    s.optional_python = e["optional_python"].get<bool>();
  }
  return s;
}

Result<LauncherSpec> ParseLauncher(const nlohmann::json& e, const std::string& w) {
  LauncherSpec s;
  MOELOG_RETURN_IF_ERROR(GetString(e, "name", w, &s.name, true));
  MOELOG_RETURN_IF_ERROR(GetString(e, "script", w, &s.script, true));
  MOELOG_RETURN_IF_ERROR(GetString(e, "run_subcommand", w, &s.run_subcommand, false));
  MOELOG_RETURN_IF_ERROR(GetString(e, "env_option", w, &s.env_option, false));
  MOELOG_RETURN_IF_ERROR(GetStrings(e, "env_option_aliases", w, &s.env_option_aliases));
  MOELOG_RETURN_IF_ERROR(GetStrings(e, "value_options", w, &s.value_options));
  MOELOG_RETURN_IF_ERROR(GetString(e, "separator", w, &s.separator, false));
  MOELOG_RETURN_IF_ERROR(GetString(e, "command_option", w, &s.command_option, false));
  MOELOG_RETURN_IF_ERROR(GetBool(e, "env_value_separate", w, &s.env_value_separate));
  MOELOG_RETURN_IF_ERROR(GetBool(e, "host_first", w, &s.host_first));
  MOELOG_RETURN_IF_ERROR(GetBool(e, "rest_is_payload", w, &s.rest_is_payload));
  MOELOG_RETURN_IF_ERROR(GetBool(e, "passes_env", w, &s.passes_env));
  if (e.contains("leading_words")) {
    const auto& n = e["leading_words"];
    if (!n.is_number_integer() || n.get<int>() < 0 || n.get<int>() > 8)
      return Status::InvalidArgument(w + ".leading_words: expected a whole number 0..8");
    s.leading_words = n.get<int>();
  }
  if (s.host_first) {  // ssh HOST CMD: one leading word, then the payload
    s.rest_is_payload = true;
    s.leading_words = std::max(s.leading_words, 1);
  }
  return s;
}

Result<Adapter> ParseHarness(const nlohmann::json& e, const std::string& w) {
  Adapter a;
  std::string script, action = "bench", reason;
  MOELOG_RETURN_IF_ERROR(GetString(e, "name", w, &a.name, true));
  MOELOG_RETURN_IF_ERROR(GetString(e, "script", w, &script, true));
  MOELOG_RETURN_IF_ERROR(GetString(e, "action", w, &action, false));
  MOELOG_RETURN_IF_ERROR(GetString(e, "reason", w, &reason, false));
  MOELOG_RETURN_IF_ERROR(GetStrings(e, "env_vars", w, &a.env_refused));
  if (action != "bench" && action != "no_adapter")
    return Status::InvalidArgument(w + ".action: expected \"bench\" or \"no_adapter\"");
  a.file = "launcher table " + w;
  a.scripts = {script};
  a.native_flags = action == "bench";
  if (action == "no_adapter") a.no_adapter = reason.empty() ? "no adapter for " + script : reason;
  return a;
}

// Appends to *out each object of the array j[key] (absent: none), read by
// `parse` with its place ("key[i]") for messages.
template <typename T, typename Parse>
Status ParseObjects(const nlohmann::json& j, const char* key, Parse parse, std::vector<T>* out) {
  if (!j.contains(key)) return Status::Ok();
  for (size_t i = 0; i < j[key].size(); ++i) {
    const auto& e = j[key][i];
    std::string w = std::string(key) + "[" + std::to_string(i) + "]";
    if (!e.is_object()) return Status::InvalidArgument(w + ": expected an object");
    auto item = parse(e, w);
    if (!item.ok()) return item.status();
    out->push_back(std::move(*item));
  }
  return Status::Ok();
}

Result<LauncherTable> ParseJson(const nlohmann::json& j) {
  LauncherTable t;
  if (!j.is_object()) return Status::InvalidArgument("launcher table: expected a JSON object");
  for (const char* k : {"interpreters", "launchers", "harnesses"})
    if (j.contains(k) && !j[k].is_array()) return Status::InvalidArgument(std::string(k) + ": expected an array");
  MOELOG_RETURN_IF_ERROR(ParseObjects(j, "interpreters", ParseInterpreter, &t.interpreters));
  MOELOG_RETURN_IF_ERROR(ParseObjects(j, "launchers", ParseLauncher, &t.launchers));
  MOELOG_RETURN_IF_ERROR(ParseObjects(j, "harnesses", ParseHarness, &t.harnesses));
  return t;
}

}  // namespace

const LauncherSpec* LauncherTable::FindLauncher(const std::string& script) const {
  for (const auto& l : launchers)
    if (PathEndsWith(script, l.script)) return &l;
  return nullptr;
}

const Adapter* LauncherTable::FindHarness(const std::string& script) const {
  for (const auto& h : harnesses)
    if (h.Matches(script)) return &h;
  return nullptr;
}

const Adapter* LauncherTable::FindHarness(const std::string& script, const EntryContext& context) const {
  for (const auto& h : harnesses)
    if (h.Matches(script) && AdapterApplies(h, context)) return &h;
  return nullptr;
}

const InterpreterSpec* LauncherTable::FindInterpreter(const std::string& program) const {
  const std::string base = Basename(program);
  for (const auto& i : interpreters)
    if (i.program == base || i.program == program) return &i;
  // python3.11: as python3 is
  if (IsPythonProgram(base))
    for (const auto& i : interpreters)
      if (i.program == "python3") return &i;
  return nullptr;
}

bool IsPythonProgram(const std::string& base) {
  if (base.rfind("python", 0) != 0) return false;
  return base.find_first_not_of("0123456789.", 6) == std::string::npos;
}

Result<LauncherTable> ParseLauncherTable(const std::string& json_text) {
  try {
    return ParseJson(nlohmann::json::parse(json_text));
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidArgument(std::string("launcher table: ") + e.what());
  }
}

const LauncherTable& DefaultLauncherTable() {
  static const LauncherTable table = [] {
    auto t = ParseLauncherTable(kDefaultTable);
    LauncherTable table = t.ok() ? *t : LauncherTable{};
    table.harnesses = BuiltinAdapters();
    return table;
  }();
  return table;
}

Result<LauncherTable> LoadLauncherTable(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  auto user = ParseLauncherTable(*text);
  if (!user.ok()) return Status::InvalidArgument(path + ": " + user.status().message());
  LauncherTable merged = *user;
  const LauncherTable& d = DefaultLauncherTable();
  merged.interpreters.insert(merged.interpreters.end(), d.interpreters.begin(), d.interpreters.end());
  merged.launchers.insert(merged.launchers.end(), d.launchers.begin(), d.launchers.end());
  merged.harnesses.insert(merged.harnesses.end(), d.harnesses.begin(), d.harnesses.end());
  return merged;
}

Result<LauncherTable> LoadPlanTable(const std::string& launchers_file, const std::string& adapters_dir) {
  LauncherTable table = DefaultLauncherTable();
  if (!launchers_file.empty()) {
    auto t = LoadLauncherTable(launchers_file);
    if (!t.ok()) return t.status();  // names the file
    table = std::move(*t);
  }
  if (!adapters_dir.empty()) MOELOG_RETURN_IF_ERROR(AddAdapters(adapters_dir, &table));
  return table;
}

Status AddAdapters(const std::string& dir, LauncherTable* table) {
  auto user = LoadAdapters(dir, &table->skipped);
  if (!user.ok()) return user.status();
  table->harnesses.insert(table->harnesses.begin(), user->begin(), user->end());
  // DIR/launchers.json: the user's launchers and interpreters, matched first.
  const std::string own = dir + "/launchers.json";
  if (access(own.c_str(), F_OK) != 0) return Status::Ok();
  auto text = ReadFile(own);
  if (!text.ok()) return text.status();
  auto t = ParseLauncherTable(*text);
  if (!t.ok()) return Status::InvalidArgument(own + ": " + t.status().message());
  table->launchers.insert(table->launchers.begin(), t->launchers.begin(), t->launchers.end());
  table->interpreters.insert(table->interpreters.begin(), t->interpreters.begin(), t->interpreters.end());
  table->harnesses.insert(table->harnesses.begin(), t->harnesses.begin(), t->harnesses.end());
  return Status::Ok();
}

}  // namespace moelog::logbook
