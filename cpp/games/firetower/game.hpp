// Fire Tower: Rising Flames, solo (spec ../shared/spec/firetower.md): the
// rules data, a move, the state and the engine that runs a game from one
// decision or chance point to the next.
//
// The state is plain data (a few hundred bytes, copied by value): bitboards
// for the tokens, card counts for the piles, and a small stack of pending
// tasks (the turn's phases, a step's hawks and checks, a Firestorm's stages)
// so that any point inside a card or a storm can be stopped at, copied and
// resumed. Counts and squares the rulebook does not give are data (Rules),
// never constants here.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "games/firetower/board.hpp"

namespace sj::firetower {

constexpr int kMaxKinds = 32;       // card kinds in the data
constexpr int kMaxInferno = 8;      // cards in the Inferno deck
constexpr int kMaxKnown = 96;       // cards of a draw pile whose order is known
constexpr int kMaxStack = 24;       // pending tasks

enum class CardType : uint8_t { kFire, kWind, kFirebreak, kWater, kHawk, kEvent };
// What a card does, from its id (the data may change counts, never effects).
enum class Effect : uint8_t {
  kFlareUp, kBurningSnag, kCrownFire, kExplosion, kEmber, kCreepingFires, kRollingFirebrand,
  kWind, kDeReforest, kDozerLine, kScratchLine, kBackburn,
  kSmokejumper, kAirDrop, kFireEngine, kHelitack, kHawks, kFirestorm
};

struct CardKind {
  std::string id;
  CardType type;
  Effect effect;
  uint8_t dirs = 0;          // wind: the directions option "set" may choose (bit per Dir)
  uint8_t gem = kNoDir;      // wind: the direction of option "gem"
  uint8_t hawks = 0;         // hawk cards: how many
};

struct LevelData {
  int hand = 6;
  std::vector<int> breaks;   // absolute squares, all three enemies
  std::vector<int> hawks;
  bool player_bucket = true;
};

// The data of spec sections 2-3, built from the package's JSON (Python
// passes it in); a position may replace the deck.
struct Rules {
  std::vector<CardKind> cards;
  int firestorm = -1;                 // the Firestorm's kind
  std::vector<int> inferno;           // the Inferno deck's kinds
  std::array<uint8_t, kMaxKinds> deck{};  // the solo player deck (default)
  std::array<uint8_t, 4> die{};       // faces per direction N, E, S, W
  int hawks_total = 18;
  std::array<LevelData, 8> levels;    // 1-7
  bool custom_deck = false;           // a position's own deck replaced `deck`
  int kind(const std::string& id) const;  // -1 when unknown
};

// ------------------------------------------------------------ moves

enum class MoveType : uint8_t {
  kSetupHawk, kInferno, kPenalty, kWindGem, kPlay, kDiscard, kReckless, kSpecialty, kHeavyWind, kPick,
  kLightBreeze, kBucket, kEnd, kHawk, kEnemyBucket, kReroll, kKeep, kStormDiscard
};
enum Specialty : uint8_t { kHeavyWinds, kLookout, kPatrol };
// A play's option (wind cards, De/Reforest) and shapes that share a card.
enum Option : uint8_t { kNoOption, kSet, kRoll, kGem, kAdd, kRemove, kDouble };

constexpr uint8_t kNull = 255;  // a square or card that is null in the JSON

// One move, as plain bytes so that moves compare and hash by memcmp.
// Squares are sorted ascending where the JSON lists a set; a few fields
// are reused by move type (see to_json).
struct Move {
  MoveType type = MoveType::kEnd;
  uint8_t card = kNull;      // the card played / picked / discarded for a reroll; specialty: Specialty
  uint8_t option = kNoOption;
  uint8_t arg = kNull;       // wind "set": Dir; "dir" of Rolling Firebrand; penalty storm; enemy tower;
                             // 1 for an Inferno Explosion's centre
  uint8_t nsq = 0;           // squares used in sq
  uint8_t ntake = 0;         // hawk cards: enemy hawks taken, after the nsq own squares
  uint8_t ncards = 0;        // discards
  uint8_t keep = kNull;     // pick after Patrol: the other card, kept
  std::array<uint8_t, 24> sq{};
  std::array<uint8_t, 12> cards{};

  bool operator==(const Move&) const = default;
};
static_assert(sizeof(Move) == 44);

// ------------------------------------------------------------ state

enum class Status : uint8_t { kOngoing, kWin, kLoss, kTimeout };
// What the game waits for. Decisions first, then the chance points.
enum class Need : uint8_t {
  kSetupHawk, kInfernoPlace, kWind, kAction, kEnd, kHawk, kEnemyBucket, kStormReroll, kStormDiscard,
  kLightBreeze, kHeavyWind, kPick,
  kInfernoDraw, kDraw, kDie,
  kNothing  // the game is over
};
constexpr int kDecisionKinds = 12;
const char* need_name(Need n);
inline bool is_decision(Need n) { return static_cast<int>(n) < kDecisionKinds; }

enum class Task : uint8_t {
  kSetupHawk, kStartWind, kInfernoDraw, kInfernoPlace, kWind, kAction, kRefill, kEnd, kTurnEnd,
  kStepEnd, kFlushStorms, kStorm, kDraw, kDrawAside, kPick, kHeavyWind, kLightBreeze, kCardRoll
};
struct Frame {
  Task task;
  uint8_t stage = 0;
  uint8_t a = 0;
  uint8_t b = 0;
};

enum BucketState : uint8_t { kBucketNone, kBucketUnused, kBucketUsed };

struct State {
  // Tokens. A pending hawk (activated, its gem on it) is in both gems and
  // hawks, and in pending.
  Bits gems, breaks, hawks, pending;

  // Cards by kind. The draw pile's order is known for its top `known`
  // cards (order_known positions; a reshuffled pile is never known):
  // order[known - 1] is the top.
  std::array<uint8_t, kMaxKinds> hand{}, draw{}, discard{}, aside{};
  std::array<uint8_t, kMaxKnown> order{};
  uint8_t known = 0;
  bool draw_ordered = false;  // the whole pile's order is known (no reshuffle since an ordered start)
  uint8_t hand_count = 0;

  // The Inferno: its deck by kind, discard in order, the revealed card.
  std::array<uint8_t, kMaxKinds> inferno{};
  std::array<uint8_t, kMaxInferno> inferno_order{};  // known order, top last
  uint8_t inferno_known = 0;
  bool inferno_ordered = false;
  std::array<uint8_t, kMaxInferno> inferno_discard{};
  uint8_t inferno_discards = 0;
  uint8_t revealed = kNull;
  bool penalty = false;
  bool round_ends = false;

  uint8_t wind = kNoDir;
  uint8_t burned = 0;          // bit per enemy tower (kNE, kSW, kSE)
  uint8_t player_bucket = kBucketUnused;
  uint8_t enemy_buckets_used = 0;  // bit per enemy tower
  bool bucket_taken = false;
  bool heavy_winds_back = false;
  bool lookout_back = false;
  uint8_t level = 1;
  uint8_t hand_base = 6;
  uint16_t turn = 1;
  uint16_t round = 1;
  uint16_t turn_limit = 100;
  bool order_known_option = false;

  Status status = Status::kOngoing;
  uint8_t score = 0;

  // The flow: what comes next, top last.
  std::array<Frame, kMaxStack> stack{};
  uint8_t depth = 0;
  uint8_t steps_open = 0;      // steps under way (a Firestorm drawn now waits for them)
  uint8_t storms_waiting = 0;  // Firestorms drawn and set aside
  uint8_t storm_dir = kNoDir;  // the storm under way
  Need need = Need::kNothing;

  int hand_size() const { return hand_base + popcount64(burned); }
  int hawk_count() const { return hawks.count(); }
  bool over() const { return status != Status::kOngoing; }
  bool at_decision() const { return is_decision(need); }
  bool at_chance() const { return need == Need::kInfernoDraw || need == Need::kDraw || need == Need::kDie; }
};

// A hawk card's plays (spec 6.10): every final set of own-hawk squares,
// for every set of enemy hawks taken. Their number is a binomial that
// reaches billions once a few hawks stand, so they are counted, ranked and
// checked, never listed: move `index` of the family is unrank(index).
struct HawkFamily {
  Move base;  // type (play or pick), card and keep
  uint8_t own = 0, placed = 0, max_take = 0;
  uint8_t ncells = 0, nenemies = 0;
  std::array<uint8_t, 64> cells{};    // where own hawks may end, ascending
  std::array<uint8_t, 64> enemies{};  // enemy hawks that may be taken, ascending
  uint64_t count = 0;

  Move unrank(uint64_t index) const;
  bool contains(const Move& m) const;
};

// A chance outcome: a card kind (Inferno draw, draw) or a direction (die),
// with its weight among the outcomes.
struct Outcome {
  uint8_t value;
  uint32_t weight;
};

// ------------------------------------------------------------ the engine

class Engine {
 public:
  explicit Engine(const Rules& rules) : rules_(rules) {}
  const Rules& rules() const { return rules_; }

  // The distinct legal moves at the current decision, in a fixed order
  // (generation order; to_json text order is the spec's canonical order),
  // but for hawk cards' plays, which are in `families` (ignored when null).
  void legal_moves(const State& s, std::vector<Move>& out, std::vector<HawkFamily>* families = nullptr) const;
  // All of them: the listed moves and every family's.
  uint64_t move_count(const State& s) const;
  // The chance outcomes at a chance point, with weights.
  void outcomes(const State& s, std::vector<Outcome>& out) const;
  // Apply a legal move (not checked: see is_legal) or a chance outcome,
  // then run to the next point that needs one: single-move decisions are
  // applied on the way, chance points always stop.
  void apply(State& s, const Move& m) const;
  void apply_chance(State& s, uint8_t value) const;
  bool is_legal(const State& s, const Move& m) const;
  // Run the flow from a freshly loaded state to its first stop.
  void advance(State& s) const;
  // A uniform draw among every distinct action move (the random baseline),
  // and their number, both without listing the large families.
  Move random_action(const State& s, Rng& rng) const;
  uint64_t action_count(const State& s) const;
  // One card's plays at the action (its Crown Fire pair too), or none.
  void card_plays(const State& s, uint8_t card, std::vector<Move>& out, std::vector<HawkFamily>* families) const;
  // How many of those plays there are and play `index` of them (in
  // card_plays' order), without listing the large ones (Creeping Fires,
  // Helitack); hawk cards count 0 here (their families are apart).
  uint64_t card_play_count(const State& s, uint8_t card) const;
  Move card_play_at(const State& s, uint8_t card, uint64_t index) const;
  // The Inferno card's placements alone (no Bucket), as at inferno_place.
  void inferno_moves(const State& s, std::vector<Move>& out) const;
  // The tasks of a turn from its Inferno draw, pushed on the stack.
  void start_turn(State& s) const { push_turn(s); }

  // The board rules, also used by the searches' evaluations.
  Bits fire(const State& s) const;
  Bits placeable(const State& s) const;
  int allowed_winds(const State& s) const;  // bit per N, E, S, W

 private:
  friend struct MoveGen;
  friend struct ActionDraw;
  const Rules& rules_;
  std::vector<Move>& scratch() const;  // a per-thread move buffer

  void run(State& s) const;
  bool surely_several(const State& s) const;
  bool step(State& s) const;  // one task; false when it stops for input
  bool step_end(State& s, Frame& f) const;
  bool storm(State& s, Frame& f) const;
  void finish(State& s, Status st) const;
  void push(State& s, Task t, uint8_t stage = 0, uint8_t a = 0, uint8_t b = 0) const;
  void push_turn(State& s) const;
  void begin_step(State& s) const;
  void inferno_storm(State& s, int dir) const;
  int first_dir(uint8_t dirs) const;
  void place_gem(State& s, int sq) const;
  void draw_card(State& s, uint8_t kind, bool aside) const;
  bool can_draw(const State& s) const;
  void discard_from_hand(State& s, uint8_t kind, int n = 1) const;
  void play_effect(State& s, const Move& m, bool as_action) const;
  void do_move(State& s, const Move& m) const;
  bool wind_in_hand(const State& s) const;
};

// Where the two gems of a Rolling Firebrand stop (a hawk on a path
// captures its gem); false when the roll is not legal.
bool rolling_ends(const State& s, int a, int b, int dir, int ends[2]);

// ------------------------------------------------------------ text

std::string move_json(const Move& m, const Rules& rules);  // canonical: sorted keys, no spaces
std::string square_json(int s);

}  // namespace sj::firetower

namespace sj::firetower {

// A level's set-up (spec section 3, steps 1-2): the player deck shuffled,
// the hand dealt, the Firestorm at a uniform place in the draw pile; the
// game waits for the set-up hawk. With `order_known` the piles keep their
// order (tests); otherwise they are multisets, as the player sees them.
State new_game(const Rules& rules, int level, uint64_t seed, bool order_known, int turn_limit);

// Chance outcomes drawn by their weights until a decision or the end;
// each event's JSON is appended to `events` when given.
void sample_to_decision(const Engine& engine, State& s, Rng& rng, std::vector<std::string>* events);
uint8_t sample_outcome(const std::vector<Outcome>& outcomes, Rng& rng);

}  // namespace sj::firetower
