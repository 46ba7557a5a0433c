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
#include <mutex>
#include <optional>
#include <utility>

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

  // The interval a search has narrowed its answer to so far (proved
  // bounds, or a sampled estimate's 95% interval), for whoever watches it
  // run. Published at a search's polls only, so a lock costs nothing and
  // both ends are always read from the same publication.
  void publish_interval(double low, double high) {
    const std::lock_guard lock(interval_mutex_);
    interval_ = std::pair{low, high};
  }
  std::optional<std::pair<double, double>> interval() const {
    const std::lock_guard lock(interval_mutex_);
    return interval_;
  }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> nodes_{0};
  mutable std::mutex interval_mutex_;
  std::optional<std::pair<double, double>> interval_;  // none: the search has not published one
};

// Counts nodes locally and checks the limits every `poll_interval` nodes, so
// the hot loop pays one increment and one compare per node. A search whose
// nodes are costly (a sampling search's node is a whole simulated game)
// polls more often, so that a stop or a deadline is seen within
// milliseconds either way.
class Budget {
 public:
  static constexpr uint64_t kPollInterval = 1024;

  Budget(const Limits& limits, Control* control, uint64_t poll_interval = kPollInterval)
      : limits_(limits),
        control_(control),
        start_(Clock::now()),
        node_cap_(limits.max_nodes),
        deadline_(limits.max_seconds),
        poll_interval_(poll_interval) {
    poll();  // nothing left (a stop asked already, a time slot already past): no node is searched
  }

  // Counts one node; returns false, without counting it, once the search
  // must stop (so a limit of N nodes lets exactly N be searched).
  bool spend() {
    if (reason_ != StopReason::kNone) return false;
    if (nodes_ >= node_cap_) {
      stop(StopReason::kNodes);
      return false;
    }
    ++nodes_;
    if (nodes_ - flushed_ >= poll_interval_) poll();
    return reason_ == StopReason::kNone;
  }

  // Narrows the budget to `share` of what is left (and at most `quota`
  // nodes), for one part of an answer made of several searches: a hint
  // values each move in turn, restarts try move orders in turn. Slices nest;
  // end_slice() restores the enclosing one and says why this one stopped.
  struct Slice {
    uint64_t node_cap;
    double deadline;
  };
  Slice begin_slice(double share, uint64_t quota) {
    const Slice outer{node_cap_, deadline_};
    const double now = seconds();
    const uint64_t left = node_cap_ - std::min(node_cap_, nodes_);
    const double part = static_cast<double>(left) * share;
    node_cap_ = nodes_ + std::min(part >= 9e18 ? left : static_cast<uint64_t>(part), quota);
    deadline_ = now + (deadline_ - now) * share;
    return outer;
  }
  StopReason end_slice(const Slice& outer) {
    const StopReason why = reason_;
    node_cap_ = outer.node_cap;
    deadline_ = outer.deadline;
    if (why == StopReason::kNodes || why == StopReason::kTime) {
      reason_ = StopReason::kNone;
      if (nodes_ >= node_cap_) stop(StopReason::kNodes);  // the outer budget is spent too
      poll();
    }
    return why;
  }

  // What is left of the current slice, for a search that must judge
  // whether a step it can price fits.
  uint64_t nodes_left() const { return node_cap_ - std::min(node_cap_, nodes_); }
  double seconds_left() const { return deadline_ - seconds(); }

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
  // The search's answer so far, as an interval; handed to the Control at
  // the next poll, so a search may note it as often as it likes.
  void note_interval(double low, double high) {
    interval_ = {low, high};
    interval_noted_ = true;
  }

  void poll() {
    if (control_) control_->add_nodes(nodes_ - flushed_);
    flushed_ = nodes_;
    if (control_ && interval_noted_) control_->publish_interval(interval_.first, interval_.second);
    interval_noted_ = false;
    if (control_ && control_->stop_requested()) stop(StopReason::kStopped);
    else if (seconds() >= deadline_) stop(StopReason::kTime);
  }

 private:
  using Clock = std::chrono::steady_clock;
  Limits limits_;
  Control* control_;
  Clock::time_point start_;
  uint64_t nodes_ = 0;
  uint64_t flushed_ = 0;
  uint64_t node_cap_;  // the limits, narrowed by the current slice
  double deadline_;
  uint64_t poll_interval_;
  StopReason reason_ = StopReason::kNone;
  std::pair<double, double> interval_;
  bool interval_noted_ = false;
};

}  // namespace sj
