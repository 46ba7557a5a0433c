// Search limits and the control object every search polls.
//
// A Control is shared between the thread running a search and whoever may
// want to stop it (the service on timeout or client disconnect): the stop
// flag and the live counters are atomics, everything else is per search.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>

namespace sj {

struct Limits {
  uint64_t max_nodes = std::numeric_limits<uint64_t>::max();
  double max_seconds = std::numeric_limits<double>::infinity();
  uint64_t max_memory_mb = 256;
};

enum class StopReason : uint8_t { kNone, kNodes, kTime, kMemory, kStopped };

inline const char* stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::kNone: return "none";
    case StopReason::kNodes: return "nodes";
    case StopReason::kTime: return "time";
    case StopReason::kMemory: return "memory";
    case StopReason::kStopped: return "stopped";
  }
  return "none";
}

class Control {
 public:
  void request_stop() { stop_.store(true, std::memory_order_relaxed); }
  bool stop_requested() const { return stop_.load(std::memory_order_relaxed); }
  uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  void add_nodes(uint64_t n) { nodes_.fetch_add(n, std::memory_order_relaxed); }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> nodes_{0};
};

// Counts nodes locally and checks the limits every kPollInterval nodes, so the
// hot loop pays one increment and one compare per node.
class Budget {
 public:
  static constexpr uint64_t kPollInterval = 1024;

  Budget(const Limits& limits, Control* control)
      : limits_(limits), control_(control), start_(Clock::now()), node_cap_(limits.max_nodes) {}

  // Counts one node; returns false, without counting it, once the search
  // must stop (so a limit of N nodes lets exactly N be searched).
  bool spend() {
    if (reason_ != StopReason::kNone) return false;
    if (nodes_ >= node_cap_) {
      stop(StopReason::kNodes);
      return false;
    }
    ++nodes_;
    if (nodes_ - flushed_ >= kPollInterval) poll();
    return reason_ == StopReason::kNone;
  }

  // Narrows the budget to `share` of what is left, for one part of an answer
  // made of several searches (a hint values each move in turn, and each gets
  // a fair part). end_slice() lifts it and returns why the slice stopped.
  void begin_slice(double share) {
    const uint64_t left = limits_.max_nodes - std::min(limits_.max_nodes, nodes_);
    const double part = static_cast<double>(left) * share;
    node_cap_ = part >= 9e18 ? limits_.max_nodes : nodes_ + static_cast<uint64_t>(part);
    slice_deadline_ = seconds() + (limits_.max_seconds - seconds()) * share;
  }
  StopReason end_slice() {
    const StopReason why = reason_;
    node_cap_ = limits_.max_nodes;
    slice_deadline_ = std::numeric_limits<double>::infinity();
    if (why == StopReason::kNodes || why == StopReason::kTime) {
      reason_ = StopReason::kNone;
      poll();  // still stopped if the whole budget is spent
      if (nodes_ >= limits_.max_nodes) stop(StopReason::kNodes);
    }
    return why;
  }

  bool stopped() const { return reason_ != StopReason::kNone; }
  StopReason reason() const { return reason_; }
  void stop(StopReason why) {
    if (reason_ == StopReason::kNone) reason_ = why;
  }
  uint64_t nodes() const { return nodes_; }
  double seconds() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }
  const Limits& limits() const { return limits_; }
  Control* control() const { return control_; }

  void poll() {
    if (control_) control_->add_nodes(nodes_ - flushed_);
    flushed_ = nodes_;
    if (control_ && control_->stop_requested()) stop(StopReason::kStopped);
    else if (const double t = seconds(); t >= limits_.max_seconds || t >= slice_deadline_)
      stop(StopReason::kTime);
  }

 private:
  using Clock = std::chrono::steady_clock;
  Limits limits_;
  Control* control_;
  Clock::time_point start_;
  uint64_t nodes_ = 0;
  uint64_t flushed_ = 0;
  uint64_t node_cap_;
  double slice_deadline_ = std::numeric_limits<double>::infinity();
  StopReason reason_ = StopReason::kNone;
};

}  // namespace sj
