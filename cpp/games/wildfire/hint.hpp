// Wild Fire! hints: every legal action of the current turn valued by the
// known-order solver, on the known deal, or (hidden order) on deals sampled
// uniformly from the unseen tiles, every action on the same deals.
#pragma once
#include <cstdint>
#include <vector>

#include "core/limits.hpp"
#include "games/wildfire/wildfire.hpp"

namespace sj::wildfire {

inline constexpr int kMaxHintSamples = 100000;

struct HintOptions {
  int samples = 200;               // hidden order: deals to sample
  uint64_t seed = 0;
  uint64_t sample_nodes = 50000;   // node cap of each solve (one action on one deal)
  int workers = 1;                 // threads; the answer does not depend on it
  Limits limits;                   // the whole hint
};

// One legal action and its verdicts over the deals counted.
struct HintChoice {
  Move move;
  int wins = 0, losses = 0, unknown = 0;  // unknown: a solve hit its node cap
};

struct HintResult {
  bool exact = false;  // only one deal is possible: verdicts, not estimates
  Kind drawn;          // the tile this turn places (spaces written out)
  int requested = 0;   // deals asked for (1 when exact)
  int samples = 0;     // deals counted: the first `samples` of those asked for
  std::vector<HintChoice> choices;  // every legal move, in legal_moves() order
  uint64_t nodes = 0;               // every node searched, counted or not
  uint64_t solves = 0;
  double seconds = 0;
  StopReason stopped_by = StopReason::kNone;  // why fewer deals were counted
  int workers = 0;                            // threads used
};

// The tiles drawn after this turn's tile in each deal the hint values the
// actions on: sample i is a uniform order of the unseen tiles (less the
// drawn one) from its own stream of (seed, i), so any sample can be redrawn
// alone. When only one deal is possible, that deal alone.
std::vector<std::vector<Kind>> sample_deals(const PositionSpec& spec, int samples, uint64_t seed);

// Throws InvalidInput for a finished game, a hidden-order position without
// its drawn tile, or options out of range. Deals are counted in order, each
// for every action or for none: a sample cut short by a limit or the stop
// flag is dropped with every later one. With no time limit or stop, the
// answer is the same for any number of workers.
HintResult hint(const PositionSpec& spec, const HintOptions& options, Control* control);

}  // namespace sj::wildfire
