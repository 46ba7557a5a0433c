// Wild Fire! known order, searched placements first and pawns second.
//
// Pawns never change where tiles go: the hottest cells depend on the tiles
// alone. So a game is won exactly when some sequence of tie choices (a
// *layout*: which cell every tile of the deal takes) admits a pawn plan. For
// one complete layout every tile's room over time is known, and the pawn
// question becomes a small scheduling problem: each colour picks a connected
// region holding one of the 1-tiles that end with a free edge, and each
// (colour, tile) pair becomes one pawn action with a deadline (the last turn
// the tile still has room for its final pawns), one action per turn.
#pragma once
#include <cstdint>
#include <vector>

#include "core/limits.hpp"
#include "games/wildfire/wildfire.hpp"
#include "search/proof.hpp"

namespace sj::wildfire {

struct PlanStats {
  uint64_t layouts = 0;      // complete layouts whose pawn question was asked
  uint64_t refuted = 0;      // ... and proved to have no pawn plan
  uint64_t plan_nodes = 0;   // pawn-plan search nodes, all layouts together
  uint64_t pruned = 0;       // partial layouts cut (too few 1-tiles can stay open)
};

// Searches layouts depth first (tie cells equivalent under a symmetry of the
// table are tried once) and, in each, the pawn plans, each layout's pawn
// search capped at `nodes_per_layout` (doubled each round until the budget
// runs out). kWin fills `line` with every turn's move; kLoss means every
// layout was exhausted and refuted; kUnknown that the budget ran out first.
// Every layout counts one node of `budget`, every pawn-plan step one more.
Verdict plan_search(const Game& game, const State& root, Budget& budget, uint64_t nodes_per_layout,
                    std::vector<Move>* line, PlanStats* stats);

// The dead-end tests the searches cut whole positions with, each asked on
// its own so that the suite can hold every one to the reference solver:
// each is true only when the game cannot be won from `s`.
struct DeadEnds {
  bool hopeless = false;             // Game::hopeless: too few turns or too little room
  bool colours_cannot_join = false;  // a colour cannot join its pawns to an open 1-tile
  bool too_few_open_ones = false;    // fewer open 1-tile spaces than colours need
};
DeadEnds dead_ends(const Game& game, const State& s);

}  // namespace sj::wildfire
