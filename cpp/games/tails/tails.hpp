// Tails on Fire: the rules engine (positions, hunts, the Rogue's script,
// the end of a round) and the open-hand hunt solver. Rules:
// ../shared/spec/tails.md; readings in docs/rules/tails.md.
//
// Cards are 1..9 (opossums) and kTrick (10, the "+1" trickster); owners are
// seats 0..5 and kRogue (6).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/limits.hpp"
#include "core/table.hpp"

namespace sj::tails {

constexpr int kTrick = 10;
constexpr int kRogue = 6;
constexpr int kNoOwner = 7;
constexpr int kMaxPlayers = 6;
// Every chance probability is a multiple of 1/9! (draws from a deck of at
// most nine cards), so values are kept as integers over this denominator.
constexpr int64_t kDen = 362880;

inline int succ(int x) { return x % 9 + 1; }

// ------------------------------------------------------------ positions

struct FireCard {
  int start = 0;
  int flames = 0;
};
struct StackSpec {
  int top = 0;
  std::vector<FireCard> fires;
};
struct PlayerSpec {
  std::vector<int> hand, den, exhausted;
  int bonfire = 0;  // 0: none
  std::vector<StackSpec> stacks;
};
struct PileCard {
  int owner = 0;  // a seat or kRogue
  int card = 0;
};
struct RogueSpec {
  bool present = false;
  std::vector<int> deck;  // top first
  bool known = false;
  std::vector<int> reserve;  // bottom -> top
};
struct Position {
  bool choose = false;
  int hero = 0;  // choose positions
  std::vector<PlayerSpec> players;
  int first = 0;
  int turn = 0;  // a seat or kRogue
  int lap = 0;
  int start_number = 0;  // 0: not given
  bool lap_given = false;
  std::vector<PileCard> discard;
  std::vector<FireCard> iguana;
  RogueSpec rogue;
};

// Throws InvalidInput naming the field. Sorts nothing.
void validate(const Position& p);
// The position as the spec writes it: fire lists, stacks, hands sorted.
Position normalized(Position p);
int flames_of(const PlayerSpec& p);

// ------------------------------------------------------------ the hunt

enum class Over : uint8_t { kNo, kWon, kNoWinner };

struct State {
  uint16_t hand[kMaxPlayers]{};  // bit c: card c (1..10)
  uint8_t top_owner = kNoOwner;  // kNoOwner: phase 1
  uint8_t top_value = 0;
  uint8_t top_trick = 0;
  uint8_t turn = 0;
  uint8_t lap = 0;
  uint8_t deck_n = 0;
  uint8_t reserve_n = 0;
  Over over = Over::kNo;
  uint8_t deck[9]{};  // top first (hidden order: ascending)
  uint8_t reserve[9]{};  // bottom -> top
};

// What one step did (a human move or a Rogue's turn), for replays.
struct StepReport {
  int owner = 0;
  int played = 0;  // 0: passed
  int drawn = 0;  // the Rogue's draw, 0: none
};

// A move: 0 pass, 1..9 a numbered opossum, kTrick the trickster.
using Move = int;

// The round's value: expected flames of every seat after step 3, and the
// chance of each winner (seats, kRogue, kNoOwner for none), over kDen.
struct Value {
  int64_t flames[kMaxPlayers]{};
  int64_t win[8]{};
};

class Hunt {
 public:
  explicit Hunt(const Position& p);  // validates; the position must be a hunt

  int players() const { return n_; }
  bool has_rogue() const { return rogue_; }
  bool known_order() const { return known_; }
  const State& initial() const { return initial_; }
  int first() const { return first_; }
  int start_number(const State& s) const { return (start_ - 1 + s.lap) % 9 + 1; }

  // Human moves at a human turn, canonical order; none when over or at
  // the Rogue's turn.
  std::vector<Move> moves(const State& s) const;
  // The same into `out` (at most three), without allocating: the search's.
  int moves(const State& s, Move out[3]) const;
  bool legal(const State& s, Move m, std::string* why) const;
  State apply(const State& s, Move m, StepReport* report = nullptr) const;
  // The Rogue's turn needs a draw from a hidden deck of two or more cards.
  bool rogue_chance(const State& s) const;
  // Runs the Rogue's turn; `draw_index` picks the card drawn from the deck.
  State rogue_step(const State& s, int draw_index, StepReport* report = nullptr) const;
  // Flames of every seat after step 3 for a finished state.
  Value terminal(const State& s) const;
  Key128 key(const State& s) const;
  // The cards (bit c: card c) that may still be played this round: every
  // one in phase 1; once a card is down, the values the top can still reach
  // (a superset: a card outside it can never be played again).
  uint16_t live_cards(const State& s) const;
  bool playable(const State& s, int card) const;
  // The least and the most flames `seat` can have after the round.
  void flames_range(int seat, double* low, double* high) const;
  // A turn with one way on: a seat that can only pass, the Rogue with no
  // draw to guess.
  bool forced(const State& s) const;
  // The most flames `seat` can end the round with (over kDen), and whether
  // every end that gives it them is one end (one winner, every seat's
  // flames the same): then any move that reaches them has that end's value.
  int64_t most_flames(int seat) const { return most_[seat]; }
  bool one_end_at_most(int seat) const { return one_end_at_most_[seat]; }

 private:
  void next_turn(State& s) const;
  void play(State& s, int owner, int card) const;

  int n_ = 0;
  bool rogue_ = false;
  bool known_ = false;
  int first_ = 0;
  int start_ = 1;
  State initial_;
  // flames_after_[winner][x]: the seats' flames after a win with value x
  // (winner kRogue included); base_ for no winner.
  int64_t flames_after_[kRogue + 1][10][kMaxPlayers]{};
  int64_t base_[kMaxPlayers]{};
  int64_t least_[kMaxPlayers]{};  // flames, over every end
  int64_t most_[kMaxPlayers]{};  // over kDen
  bool one_end_at_most_[kMaxPlayers]{};
};

// ------------------------------------------------------------ the solver

struct SolveStats {
  uint64_t nodes = 0;
  double seconds = 0;
  StopReason stopped_by = StopReason::kNone;
  TableStats table;
};

struct MoveValue {
  Move move = 0;
  Value value;
};

struct HuntAnswer {
  bool exact = false;  // false: a limit stopped the search first
  Value value;
  std::vector<MoveValue> moves;  // every legal move of the seat to move
  int best = -1;  // index into moves, -1 when none
  bool has_line = false;  // no chance node on the equilibrium line
  std::vector<Move> line;
  SolveStats stats;
};

// Backward induction (max-n with chance): each human takes the move that
// gives them the most flames, ties to the canonical first move.
class Solver {
 public:
  Solver(const Hunt& hunt, Budget& budget, uint64_t table_bytes);
  Value value(const State& s);  // budget.stopped() after: not exact
  HuntAnswer answer(const State& root);
  TableStats table_stats() const { return table_.stats(); }
  const Hunt& hunt() const { return hunt_; }

 private:
  const Hunt& hunt_;
  Budget& budget_;
  BoundedTable<Value, Key128> table_;
};

HuntAnswer solve_hunt(const Position& p, const Limits& limits, Control* control);

// ------------------------------------------------------------ replay, rounds

struct RoundEnd {
  bool ended = false;
  int winner = kNoOwner;  // a seat, kRogue or kNoOwner
  int winning_card = 0;
  int winning_value = 0;
  bool game_over = false;
  Position next;  // the next round's choose position (when !game_over)
  std::vector<int> final_flames;  // every seat's flames after the round
  std::vector<int> winners;  // game_over: the seats with the most flames
};

struct ReplayResult {
  std::vector<StepReport> steps;  // human moves and the Rogue's turns
  std::vector<Move> moves_played;
  std::string error;
  Position position;  // the hunt position after the last legal move
  State state;
  RoundEnd round;
  bool needs_draw = false;  // stopped before a hidden draw no rogue_draws gave
};

// Plays `line` (human moves), running the Rogue between them; a hidden
// deck's draws come from `draws` in order (a one-card deck needs none).
ReplayResult replay(const Position& p, const std::vector<Move>& line, const std::vector<int>& draws);
// Runs the Rogue's turns that need no hidden draw from the position.
State settle(const Hunt& hunt, State s, std::vector<PileCard>* pile, std::vector<StepReport>* steps);
Position write_position(const Position& base, const Hunt& hunt, const State& s,
                        const std::vector<PileCard>& pile);
RoundEnd end_round(const Position& hunt_position, const State& s, const std::vector<PileCard>& pile);

// ------------------------------------------------------------ set-up and choices

// A deal from a seed: bonfires, hands, the iguana pile (the default fire
// cards paired with starting numbers at random), the Rogue's deck.
Position deal(uint64_t seed, int players, bool rogue, bool known_rogue);
// The choose position's hunt once every seat has chosen `chosen[i]`.
Position hunt_from_choice(const Position& choose, const std::vector<std::vector<int>>& chosen);
std::vector<std::vector<int>> choices_of(const std::vector<int>& hand);

struct ChoiceValue {
  std::vector<int> cards;
  int64_t num = 0;  // exact: expected flames num/den
  int64_t den = 1;
  double mean = 0, lo = 0, hi = 0;  // sampled
  uint64_t samples = 0;
  bool done = false;
};
// Why a choice was sampled rather than enumerated.
enum class SampledBy : uint8_t { kNone, kProfiles, kLimit, kRogueOrder };
struct ChoiceAnswer {
  bool exact = true;  // every opponents' profile enumerated
  // past max_profiles, the limit could not pay for them all, or the Rogue's
  // order drawn per sample
  SampledBy sampled_by = SampledBy::kNone;
  uint64_t profiles = 0;  // opponents' profiles per choice
  std::vector<ChoiceValue> choices;  // best first
  SolveStats stats;
};
// `draw_rogue_order` (for a policy that must choose within a second): each
// sample also draws the order of the Rogue's deck, and its hunts see that
// order, so a hunt costs tens of nodes instead of the hidden deck's chance
// tree (about a million at 2 seats). The values are then those of players
// who know the order: optimistic, a guide for choosing, not the spec's
// expected flames.
ChoiceAnswer choose(const Position& p, uint64_t max_profiles, uint64_t samples, uint64_t seed,
                    const Limits& limits, Control* control, bool draw_rogue_order = false);

}  // namespace sj::tails
