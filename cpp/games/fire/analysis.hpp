// Fire! answers built on the generic expectimax: win probabilities under
// optimal play, valued hints, and a simple fixed strategy to compare with.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/limits.hpp"
#include "games/fire/fire.hpp"
#include "search/certain.hpp"
#include "search/expectimax.hpp"

namespace sj::fire {

struct SolveOptions {
  ExpectimaxOptions search;
  bool ask_certain = true;  // ask "won whatever the reveals?" before valuing
  bool focus = true;        // ask it first with fewer choices (FocusedGame)
  bool split = true;        // team mode: value the split plan first (SplitPlan)
};

// Which search gave the value: a team split plan won for certain, a
// certain-win proof with the focused choices or with every choice, or the
// expectimax.
enum class DecidedBy : uint8_t { kSplit, kFocused, kCertain, kExpectimax };

struct SolveResult {
  Bounds value;  // exact when value.exact()
  Certain certain = Certain::kUnknown;  // kNotWon: some reveals lose against any play
  DecidedBy decided_by = DecidedBy::kExpectimax;
  ExpectimaxStats stats;  // of the search that gave the value; nodes and time of all
};
SolveResult solve(const Game& game, const Limits& limits, Control* control, SolveOptions options = {});

// Team mode: the best way to share the live aliens out so that each
// player destroys its share alone, giving nothing more. Its value, the
// product of the two players' chances (their decks are separate), is a
// proved lower bound on the team's (a policy's value).
struct SplitResult {
  double value = 0;
  bool exact = false;  // both chances valued exactly (else their lower ends)
  std::array<std::vector<int>, 2> aliens;  // input indices, per player
  ExpectimaxStats stats;
};
SplitResult split_plan(const Game& game, const Limits& limits, Control* control);  // throws InvalidInput in solo mode

struct Choice {
  Move move;
  std::vector<Move> equivalent;  // other moves that reach the same state
  Bounds value;
};
struct RevealChoices {
  int kind = -1;  // the battery revealed
  double probability = 0;
  Bounds value;  // the best choice's
  std::vector<Choice> choices;  // best first
};
// At a decision: its choices. Before a hidden reveal: the choices after
// each possible reveal, with its probability.
struct HintResult {
  Bounds value;
  std::vector<Choice> choices;
  std::vector<RevealChoices> reveals;
  ExpectimaxStats stats;
};
HintResult hint(const Game& game, const Limits& limits, Control* control);

// The fixed strategy: fire if some weapon would score a hit (most hits; on
// the alien taking most hits, the most damaged first; destroy the weakest
// battery), else charge the fullest weapon that stays below 10 energy; never
// give a battery away.
Move strategy_move(const Game& game, const State& s);
// Its exact win probability (the same expectimax with the choice forced).
SolveResult strategy_value(const Game& game, const Limits& limits, Control* control);
// Its wins in up to `games` seeded random games, stopped like a search
// (stop flag, time limit); `played` says how many were.
struct Simulation {
  uint64_t played = 0;
  uint64_t wins = 0;
  StopReason stopped_by = StopReason::kNone;
};
Simulation simulate_strategy(const Game& game, uint64_t games, uint64_t seed, const Limits& limits,
                             Control* control);

}  // namespace sj::fire
