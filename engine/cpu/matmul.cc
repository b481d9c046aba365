#include "engine/cpu/matmul.h"

#include <cstdio>

namespace moelog::engine::cpu {
namespace {

using dnnl::memory;

memory::desc ViewDesc(const MatView& v) {
  return memory::desc({v.rows, v.cols}, ToDnnl(v.dtype), memory::dims{v.row_stride, v.col_stride});
}

memory::desc OutDesc(const OutView& c) {
  return memory::desc({c.rows, c.cols}, ToDnnl(c.dtype), memory::dims{c.ld, 1});
}

std::string ViewKey(const MatView& v) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "%d:%lldx%lld/%lld,%lld", static_cast<int>(v.dtype),
                static_cast<long long>(v.rows), static_cast<long long>(v.cols),
                static_cast<long long>(v.row_stride), static_cast<long long>(v.col_stride));
  return buf;
}

}  // namespace

memory::data_type ToDnnl(DType t) {
  switch (t) {
    case DType::kF32: return memory::data_type::f32;
    case DType::kBF16: return memory::data_type::bf16;
    case DType::kS8: return memory::data_type::s8;
    case DType::kS32: return memory::data_type::s32;
  }
  return memory::data_type::f32;
}

MatmulRunner::MatmulRunner() : engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {}

void MatmulRunner::Fail(const std::string& what) {
  if (status_.ok()) status_ = Status::Internal("oneDNN matmul: " + what);
}

MatmulRunner::Entry* MatmulRunner::Get(const MatView& a, const memory::desc& b_md, const std::string& b_key,
                                       const OutView& c, bool accumulate, int64_t n) {
  char ckey[96];
  std::snprintf(ckey, sizeof(ckey), "|c%d:%lld/%lld|%d", static_cast<int>(c.dtype),
                static_cast<long long>(n), static_cast<long long>(c.ld), accumulate ? 1 : 0);
  std::string key = ViewKey(a) + "|" + b_key + ckey;
  auto it = cache_.find(key);
  if (it != cache_.end()) return &it->second;
  try {
    Entry e;
    e.a = ViewDesc(a);
    e.b = b_md;
    e.c = OutDesc(c);
    dnnl::primitive_attr attr;
    if (accumulate) {
      dnnl::post_ops ops;
      ops.append_sum(1.0f);
      attr.set_post_ops(ops);
    }
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(e.a, e.b, e.c), attr, engine_);
    e.prim = dnnl::matmul(pd);
    last_impl_ = pd.impl_info_str();
    return &cache_.emplace(std::move(key), std::move(e)).first->second;
  } catch (const dnnl::error& err) {
    Fail(std::string("creating ") + key + ": " + err.what());
    return nullptr;
  }
}

void MatmulRunner::Execute(Entry* e, const MatView& a, const memory& b, const OutView& c) {
  try {
    memory am(e->a, engine_, const_cast<void*>(a.data));
    memory cm(e->c, engine_, c.data);
    e->prim.execute(stream_, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, cm}});
    stream_.wait();
  } catch (const dnnl::error& err) {
    Fail(std::string("execute: ") + err.what());
  }
}

void MatmulRunner::Run(const MatView& a, const MatView& b, const OutView& c, bool accumulate) {
  if (a.rows == 0 || c.cols == 0) return;
  if (a.cols == 0) {
    if (!accumulate)
      for (int64_t i = 0; i < c.rows; ++i)
        std::memset(static_cast<char*>(c.data) + i * c.ld * DTypeSize(c.dtype), 0,
                    static_cast<size_t>(c.cols * DTypeSize(c.dtype)));
    return;
  }
  Entry* e = Get(a, ViewDesc(b), "v" + ViewKey(b), c, accumulate, b.cols);
  if (e == nullptr) return;
  try {
    memory bm(e->b, engine_, const_cast<void*>(b.data));
    Execute(e, a, bm, c);
  } catch (const dnnl::error& err) {
    Fail(std::string("weights: ") + err.what());
  }
}

void MatmulRunner::Run(const MatView& a, const PackedMatrix& b, const OutView& c, bool accumulate) {
  if (a.rows == 0 || c.cols == 0) return;
  char bkey[64];
  std::snprintf(bkey, sizeof(bkey), "p%d:%lldx%lld", static_cast<int>(b.dtype()), static_cast<long long>(b.k()),
                static_cast<long long>(b.n()));
  Entry* e = Get(a, b.desc(), bkey, c, accumulate, b.n());
  if (e == nullptr) return;
  Execute(e, a, b.memory(), c);
}

PackedMatrix MatmulRunner::Pack(const MatView& b) {
  PackedMatrix p;
  p.k_ = b.rows;
  p.n_ = b.cols;
  p.dtype_ = b.dtype;
  try {
    // The blocked layout brgemm wants for B depends on (K, N, types), not M.
    memory::data_type dt = ToDnnl(b.dtype);
    memory::data_type out = b.dtype == DType::kS8 ? memory::data_type::s32 : dt;
    memory::desc a_md({512, b.rows}, dt, memory::format_tag::ab);
    memory::desc b_md({b.rows, b.cols}, dt, memory::format_tag::any);
    memory::desc c_md({512, b.cols}, out, memory::format_tag::ab);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_md, c_md), engine_);
    p.desc_ = pd.weights_desc();
    p.memory_ = memory(p.desc_, engine_);
  } catch (const dnnl::error& err) {
    Fail(std::string("packing: ") + err.what());
    p.k_ = 0;
    return p;
  }
  Repack(b, &p);
  return p;
}

void MatmulRunner::Repack(const MatView& b, PackedMatrix* p) {
  if (p->empty()) return;
  try {
    memory src(ViewDesc(b), engine_, const_cast<void*>(b.data));
    dnnl::reorder(src, p->memory_).execute(stream_, src, p->memory_);
    stream_.wait();
  } catch (const dnnl::error& err) {
    Fail(std::string("reorder: ") + err.what());
  }
}

}  // namespace moelog::engine::cpu
