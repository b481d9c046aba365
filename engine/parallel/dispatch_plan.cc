#include "engine/parallel/dispatch_plan.h"

#include <algorithm>

#include "engine/enum_names.h"

namespace moelog::engine::parallel {

namespace {

const Named<CommPath> kCommPaths[] = {
    {"compact_psum", CommPath::kCompactPsum}, {"ring_ag_rs", CommPath::kRingAgRs}, {"a2a", CommPath::kA2a}};
const Named<DispatchKind> kDispatchKinds[] = {{"compact", DispatchKind::kCompact},
                                              {"dense_masked", DispatchKind::kDenseMasked}};

}  // namespace

Result<CommPath> ParseCommPath(const std::string& name) {
  return ValueNamed(kCommPaths, name, "--ep-comm-path", "path");
}
Result<DispatchKind> ParseDispatchKind(const std::string& name) {
  return ValueNamed(kDispatchKinds, name, "--ep-dispatch", "dispatch");
}
const char* CommPathName(CommPath p) { return NameOf(kCommPaths, p); }

namespace {

int64_t RoundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// Fills the a2a fields of every device of one replica: which of its shard's
// tokens each source sends to each expert rank, and where each destination
// row finds its token in the receive buffer.
void PlanA2a(const DispatchPlan& plan, int replica, std::vector<DeviceDispatch>* devs) {
  const int b = plan.mesh.expert;
  const int64_t tr = plan.tokens / plan.mesh.data;
  const int64_t ts = tr / b;
  auto dev = [&](int j) -> DeviceDispatch& { return (*devs)[static_cast<size_t>(replica * b + j)]; };
  for (int j = 0; j < b; ++j) {
    dev(j).shard_begin = j * ts;
    dev(j).shard_count = ts;
    dev(j).send_tokens.assign(static_cast<size_t>(b), {});
    dev(j).recv_counts.assign(static_cast<size_t>(b), 0);
  }
  std::vector<int32_t> slot(static_cast<size_t>(tr));
  for (int j = 0; j < b; ++j) {
    DeviceDispatch& d = dev(j);
    std::vector<uint8_t> used(static_cast<size_t>(tr), 0);
    for (int64_t r = 0; r < d.count; ++r)
      if (d.keep[static_cast<size_t>(r)]) used[static_cast<size_t>(d.token[static_cast<size_t>(r)])] = 1;
    int32_t next = 0;
    for (int q = 0; q < b; ++q) {
      auto& list = dev(q).send_tokens[static_cast<size_t>(j)];
      for (int64_t t = q * ts; t < (q + 1) * ts; ++t) {
        if (!used[static_cast<size_t>(t)]) continue;
        list.push_back(static_cast<int32_t>(t - q * ts));
        slot[static_cast<size_t>(t)] = next++;
      }
      d.recv_counts[static_cast<size_t>(q)] = static_cast<int64_t>(list.size());
    }
    // Kept rows now index the receive buffer; padding and dropped rows read
    // slot 0 but are never gathered (keep = 0).
    for (int64_t r = 0; r < d.count; ++r) {
      const size_t i = static_cast<size_t>(r);
      d.token[i] = d.keep[i] ? slot[static_cast<size_t>(d.token[i])] : 0;
    }
  }
}

// The routing and mesh a plan can take: axes that divide the experts and the
// tokens, and a dispatch kind with the communication path.
Status CheckDispatchShape(const Routing& routing, const DeviceMesh& mesh, CommPath path, DispatchKind kind) {
  const int64_t t = routing.tokens, k = routing.topk, e = routing.experts;
  const int a = mesh.data, b = mesh.expert;
  if (a < 1 || b < 1) return Status::InvalidArgument("--mesh: axes must be positive");
  if (e % b != 0)
    return Status::InvalidArgument("--experts: " + std::to_string(e) + " experts are not divisible by the EP size " +
                                   std::to_string(b));
  if (t % a != 0)
    return Status::InvalidArgument("--tokens: " + std::to_string(t) + " tokens are not divisible by the data axis " +
                                   std::to_string(a));
  if (path != CommPath::kCompactPsum && b > 1 && (t / a) % b != 0)
    return Status::InvalidArgument("--ep-comm-path: " + std::string(CommPathName(path)) + " requires the tokens per " +
                                   "replica (" + std::to_string(t / a) + ") divisible by the EP size " +
                                   std::to_string(b));
  if (kind == DispatchKind::kDenseMasked && path == CommPath::kA2a)
    return Status::InvalidArgument("--ep-dispatch: dense_masked has no a2a path");
  if (static_cast<int64_t>(routing.ids.size()) != t * k) return Status::Internal("routing ids do not have T*K entries");
  return Status::Ok();
}

// Appends flat position p to a device's rows (a padding or masked row when
// not `real`: weight 0, never gathered).
void AddRow(const Routing& routing, int64_t t0, int64_t p, bool real, DeviceDispatch* d) {
  d->flat.push_back(p);
  d->token.push_back(static_cast<int32_t>(p / routing.topk - t0));
  d->weight.push_back(real ? routing.weights[static_cast<size_t>(p)] : 0.0f);
  d->keep.push_back(real ? 1 : 0);
}

// The devices of data replica `ai`: each takes its local experts' rows in
// expert-sorted order (dropped past drop_cap, counting the earlier replicas'
// rows in `seen`); dense_masked adds every other row, masked.
void PlanReplica(const Routing& routing, int ai, int64_t drop_cap, std::vector<int64_t>* seen, DispatchPlan* plan) {
  const int64_t k = routing.topk, e = routing.experts;
  const int a = plan->mesh.data, b = plan->mesh.expert;
  const int64_t tr = routing.tokens / a, l = e / b, t0 = ai * tr;
  // Expert-sorted order inside the replica (stable: by flat position).
  std::vector<std::vector<int64_t>> bucket(static_cast<size_t>(e));
  std::vector<int64_t> null_rows;
  for (int64_t p = t0 * k; p < (t0 + tr) * k; ++p) {
    int32_t id = routing.ids[static_cast<size_t>(p)];
    if (id >= 0 && id < e) bucket[static_cast<size_t>(id)].push_back(p);
    else null_rows.push_back(p);
  }
  for (int j = 0; j < b; ++j) {
    DeviceDispatch& d = plan->devices[static_cast<size_t>(ai * b + j)];
    d.device = ai * b + j;
    d.token_begin = t0;
    d.token_count = tr;
    d.expert_begin = j * l;
    d.expert_count = l;
    for (int64_t g = 0; g < l; ++g) {
      const auto& rows = bucket[static_cast<size_t>(j * l + g)];
      const int64_t rank0 = (*seen)[static_cast<size_t>(j * l + g)];
      for (size_t i = 0; i < rows.size(); ++i)
        AddRow(routing, t0, rows[i], drop_cap <= 0 || rank0 + static_cast<int64_t>(i) < drop_cap, &d);
      d.group_sizes.push_back(static_cast<int64_t>(rows.size()));
    }
    d.count = d.rows();
    plan->max_count = std::max(plan->max_count, d.count);
    if (plan->kind == DispatchKind::kDenseMasked) {
      // Every other row of the replica, masked, through the dummy expert.
      for (int64_t ex = 0; ex < e; ++ex) {
        if (ex >= j * l && ex < (j + 1) * l) continue;
        for (int64_t p : bucket[static_cast<size_t>(ex)]) AddRow(routing, t0, p, false, &d);
      }
      for (int64_t p : null_rows) AddRow(routing, t0, p, false, &d);
      d.group_sizes.push_back(d.rows() - d.count);
    }
  }
  for (int64_t ex = 0; ex < e; ++ex)
    (*seen)[static_cast<size_t>(ex)] += static_cast<int64_t>(bucket[static_cast<size_t>(ex)].size());
}

// Compact dispatch: every device padded to one local capacity.
void PadCompact(DispatchPlan* plan) {
  plan->local_cap = RoundUp(plan->max_count, kLocalCapMultiple);
  for (auto& d : plan->devices) {
    const int64_t pad = plan->local_cap - d.count;
    for (int64_t i = 0; i < pad; ++i) {
      d.flat.push_back(-1);
      d.token.push_back(0);
      d.weight.push_back(0.0f);
      d.keep.push_back(0);
    }
    d.group_sizes.back() += pad;  // the LAST local group: real rows keep their expert
  }
}

}  // namespace

Result<DispatchPlan> BuildDispatchPlan(const Routing& routing, const DeviceMesh& mesh, CommPath path,
                                       DispatchKind kind, int64_t drop_cap) {
  MOELOG_RETURN_IF_ERROR(CheckDispatchShape(routing, mesh, path, kind));
  DispatchPlan plan;
  plan.mesh = mesh;
  plan.path = path;
  plan.kind = kind;
  plan.tokens = routing.tokens;
  plan.topk = routing.topk;
  plan.experts = routing.experts;
  plan.devices.resize(static_cast<size_t>(mesh.Size()));
  // Assignments of each expert in earlier replicas: the global rank of a row
  // inside its expert is this plus its index in the replica's bucket.
  std::vector<int64_t> seen(static_cast<size_t>(routing.experts), 0);
  for (int ai = 0; ai < mesh.data; ++ai) PlanReplica(routing, ai, drop_cap, &seen, &plan);
  if (kind == DispatchKind::kCompact) PadCompact(&plan);
  else plan.local_cap = routing.tokens / mesh.data * routing.topk;
  if (path == CommPath::kA2a)
    for (int ai = 0; ai < mesh.data; ++ai) PlanA2a(plan, ai, &plan.devices);
  return plan;
}

std::vector<Volume> AnalyticStepVolumes(const DispatchPlan& plan, const StepVolumeInputs& in) {
  const DeviceMesh& m = plan.mesh;
  const int b = m.expert, a = m.data;
  const int64_t h = in.hidden, tr = plan.tokens / a, ts = b > 0 ? tr / b : tr;
  const int64_t l = plan.experts / b;
  std::vector<Volume> out(static_cast<size_t>(m.Size()));
  for (int dev = 0; dev < m.Size(); ++dev) {
    Volume& v = out[static_cast<size_t>(dev)];
    auto add = [&v](Volume x, int times = 1) {
      v.sent += times * x.sent;
      v.recv += times * x.recv;
    };
    const int j = m.ExpertIndex(dev);
    const int passes = in.backward ? 2 : 1;  // backward mirrors the forward exchange
    if (b > 1) {
      switch (plan.path) {
        case CommPath::kCompactPsum:
          add(RingAllReduceVolume(tr * h, b, j, in.wire), passes);
          break;
        case CommPath::kRingAgRs:
          add(RingAllGatherVolume(ts * h, b, in.wire), passes);
          add(RingReduceScatterVolume(ts * h, b, in.wire), passes);
          break;
        case CommPath::kA2a: {
          const DeviceDispatch& d = plan.devices[static_cast<size_t>(dev)];
          int64_t out_rows = 0, in_rows = 0;
          for (int q = 0; q < b; ++q) {
            if (q == j) continue;
            out_rows += static_cast<int64_t>(d.send_tokens[static_cast<size_t>(q)].size());
            in_rows += d.recv_counts[static_cast<size_t>(q)];
          }
          // Dispatch sends shard rows out and receives expert rows in; the
          // combine sends them back.
          Volume dispatch{out_rows * h * WireBytes(in.wire), in_rows * h * WireBytes(in.wire)};
          Volume combine{dispatch.recv, dispatch.sent};
          add(dispatch, passes);
          add(combine, passes);
          break;
        }
      }
    }
    if (in.backward) {
      if (in.shared_dim > 0) {
        const int64_t n = h * in.shared_dim;
        if (plan.path == CommPath::kCompactPsum) {
          if (a > 1) add(RingAllReduceVolume(n, a, m.DataIndex(dev), in.wire), 3);
        } else if (m.Size() > 1) {
          add(RingAllReduceVolume(n, m.Size(), dev, in.wire), 3);
        }
      }
      if (a > 1) add(RingAllReduceVolume(l * h * in.mlp_dim, a, m.DataIndex(dev), in.wire), 3);
    }
  }
  return out;
}

}  // namespace moelog::engine::parallel
