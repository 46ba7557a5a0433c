// On the Run! competitive rules (2-4 players, deal known). See onrun.hpp.
// The board, the tile placement and the actions are the co-op engine's
// (Game); this file adds who owns which colour, the seat order, the turns
// after the last tile and the scores.
#include <algorithm>
#include <unordered_map>

#include "core/bits.hpp"
#include "core/error.hpp"
#include "core/hex.hpp"
#include "games/onrun/onrun.hpp"

namespace sj::onrun {
namespace {

PositionSpec board_spec(const ContestSpec& spec) {
  if (spec.players < 2 || spec.players > kMaxSeats)
    throw InvalidInput("position.players: " + std::to_string(spec.players) + " is not 2, 3 or 4");
  if (spec.board.next < 0 || spec.board.next >= spec.players)
    throw InvalidInput("position.next: seat " + std::to_string(spec.board.next) + " is not 0.." +
                       std::to_string(spec.players - 1));
  return spec.board;
}

bool adjacent(Cell a, Cell b) {
  for (const Axial step : kHexStep)
    if (a.q + step.q == b.q && a.r + step.r == b.r) return true;
  return false;
}

}  // namespace

bool contest_less(const ContestMove& a, const ContestMove& b) {
  if (!(a.move.place == b.move.place)) return a.move.place < b.move.place;
  if (a.color != b.color) return a.color < b.color;
  return canonical_less(a.move, b.move);
}

Contest::Contest(const ContestSpec& spec) : game_(board_spec(spec)), players_(spec.players) {
  ContestState s;
  s.board = game_.initial();
  s.seat = static_cast<uint8_t>(spec.board.next);
  if (spec.passes < 0 || spec.passes > players_)
    throw InvalidInput("position.passes: " + std::to_string(spec.passes) + " is not 0.." + std::to_string(players_));
  if (spec.passes > 0 && game_.turns_left(s.board) > 0)
    throw InvalidInput("position.passes: passes count only after the last tile, and " +
                       std::to_string(game_.turns_left(s.board)) + " tiles are left");
  s.passes = static_cast<uint8_t>(spec.passes);
  if (players_ == 3) {
    int sum = 0;
    for (int k = 0; k < 3; ++k) {
      if (spec.neutral[k] < 0) throw InvalidInput("position.neutral." + std::to_string(k) + ": negative");
      sum += spec.neutral[k];
      s.neutral[k] = static_cast<uint8_t>(std::min(spec.neutral[k], 255));
    }
    if (sum != spec.board.supply[kNeutral])
      throw InvalidInput("position.neutral: the seats hold " + std::to_string(sum) +
                         " neutral pawns, but supply." + std::to_string(kNeutral) + " is " +
                         std::to_string(spec.board.supply[kNeutral]));
  }
  initial_ = s;
}

std::vector<int> Contest::colors_of(int seat) const {
  if (players_ == 2) return {2 * seat, 2 * seat + 1};
  if (players_ == 3) return {seat, kNeutral};
  return {seat};
}

State Contest::acting(const ContestState& s, int color) const {
  State b = s.board;
  b.next = static_cast<uint8_t>(color);
  if (players_ == 3) b.supply[kNeutral] = s.neutral[s.seat];
  return b;
}

// The state after the seat's turn: whatever went back to the neutral supply
// (a covered neutral pawn, a failed evacuation) is the acting seat's.
ContestState Contest::settle(const ContestState& s, const State& after, bool passed) const {
  ContestState t;
  t.board = after;
  if (players_ == 3) {
    t.neutral = s.neutral;
    t.neutral[s.seat] = after.supply[kNeutral];
    t.board.supply[kNeutral] = static_cast<uint8_t>(t.neutral[0] + t.neutral[1] + t.neutral[2]);
  }
  t.seat = static_cast<uint8_t>((s.seat + 1) % players_);
  t.board.next = t.seat;
  const bool after_last_tile = tiles_left(s) == 0;
  t.passes = after_last_tile && passed ? static_cast<uint8_t>(s.passes + 1) : 0;
  return t;
}

// Some pawn on a tile whose group touches an empty edge area: an evacuation
// of its colour and number can send it there (whoever may move that colour).
bool Contest::can_reach_edge(const State& b) const {
  std::vector<Cell> open;
  for (Cell c : game_.edge_areas(b)) {
    bool held = false;
    for (int i = 0; i < b.nedge && !held; ++i) held = b.edge[i].cell == c;
    if (!held) open.push_back(c);
  }
  // Same-number groups by repeated joining: at most 64 tiles, and only
  // when the end is checked.
  std::array<int, kMaxTiles> group{};
  for (int i = 0; i < b.ntiles; ++i) group[i] = i;
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < b.ntiles; ++i)
      for (int j = 0; j < b.ntiles; ++j)
        if (b.tiles[i].n == b.tiles[j].n && group[j] < group[i] && adjacent(b.tiles[i].cell, b.tiles[j].cell)) {
          group[i] = group[j];
          changed = true;
        }
  }
  std::array<bool, kMaxTiles> touches_open{};
  for (int i = 0; i < b.ntiles; ++i)
    for (Cell c : open)
      if (adjacent(b.tiles[i].cell, c)) touches_open[group[i]] = true;
  for (int i = 0; i < b.ntiles; ++i)
    if (b.tiles[i].room() < b.tiles[i].spaces && touches_open[group[i]]) return true;
  return false;
}

bool Contest::final(const ContestState& s) const {
  if (tiles_left(s) > 0) return false;
  return s.passes >= players_ || !can_reach_edge(s.board);
}

std::vector<Cell> Contest::flashpoints(const ContestState& s) const {
  return tiles_left(s) > 0 ? game_.flashpoints(s.board) : std::vector<Cell>{};
}

void Contest::moves(const ContestState& s, std::vector<ContestMove>& out) const {
  if (final(s)) return;
  std::vector<Move> own;
  for (int color : colors_of(s.seat)) {
    const State b = acting(s, color);
    own.clear();
    if (tiles_left(s) > 0) {
      game_.moves(b, own, nullptr);
    } else {
      if (out.empty()) own.push_back(Move{});  // one pass, whichever colour
      game_.evacuations(b, color, &own, Cell{}, nullptr);
    }
    for (Move& m : own) out.push_back(ContestMove{std::move(m), static_cast<uint8_t>(color)});
  }
}

std::vector<ContestChild> Contest::children(const ContestState& s) const {
  std::vector<ContestMove> all;
  moves(s, all);
  if (all.size() > kMaxListedMoves)
    throw InvalidInput("position: the turn has " + std::to_string(all.size()) + " legal moves, more than the " +
                       std::to_string(kMaxListedMoves) + " a listing gives");
  std::sort(all.begin(), all.end(), contest_less);
  std::vector<ContestChild> out;
  std::vector<ContestState> reached;
  std::unordered_map<uint64_t, size_t> first;  // a key finds the candidate, the state decides
  for (ContestMove& m : all) {
    ContestState next = apply(s, m);
    const uint64_t k = game_.key(next.board) ^ mix64(next.passes + 256u * next.neutral[0] +
                                                     65536u * next.neutral[1] + 16777216u * next.neutral[2]);
    const auto it = first.find(k);
    if (it != first.end() && reached[it->second] == next) {
      out[it->second].equivalent.push_back(std::move(m));
      continue;
    }
    if (it == first.end()) first.emplace(k, out.size());
    out.push_back(ContestChild{std::move(m), {}});
    reached.push_back(std::move(next));
  }
  return out;
}

bool Contest::legal(const ContestState& s, const ContestMove& m, std::string* why) const {
  auto fail = [&](const std::string& text) {
    *why = text;
    return false;
  };
  if (final(s)) return fail("the game is over");
  const std::vector<int> mine = colors_of(s.seat);
  if (std::find(mine.begin(), mine.end(), m.color) == mine.end())
    return fail("colour " + std::to_string(m.color) + " is not one seat " + std::to_string(s.seat) + " may use");
  const State b = acting(s, m.color);
  if (tiles_left(s) > 0) return game_.legal(b, m.move, why);
  switch (m.move.kind) {
    case ActionKind::kPass: return true;
    case ActionKind::kTile:
    case ActionKind::kEdge: return fail("after the last tile a turn is only an evacuation or a pass");
    case ActionKind::kEvacuate: {
      std::vector<Move> ev;
      game_.evacuations(b, m.color, &ev, Cell{}, nullptr);
      auto to = m.move.to;
      std::sort(to.begin(), to.end());
      bool any = false;
      for (const Move& e : ev)
        if (e.number == m.move.number) {
          any = true;
          if (e.to == to) return true;
        }
      if (!any)
        return fail("no pawn of colour " + std::to_string(m.color) + " stands on a tile numbered " +
                    std::to_string(m.move.number));
      return fail("the evacuation's destinations are not those of any outcome");
    }
  }
  return fail("unknown action");
}

ContestState Contest::apply(const ContestState& s, const ContestMove& m, TurnReport* report) const {
  const State b = acting(s, m.color);
  if (tiles_left(s) > 0) return settle(s, game_.apply(b, m.move, report), false);
  Move sorted = m.move;
  std::sort(sorted.to.begin(), sorted.to.end());
  State after = game_.act(b, sorted, report);
  after.drawn = b.drawn;  // no tile was drawn: act counts one per turn
  return settle(s, after, m.move.kind == ActionKind::kPass);
}

std::vector<SeatResult> Contest::results(const ContestState& s) const {
  const State& b = s.board;
  std::array<int, kColors> at_edge{}, damage{};
  for (int i = 0; i < b.nedge; ++i) ++at_edge[b.edge[i].color];
  for (int i = 0; i < b.ntiles; ++i)
    for (int k = 0; k < kColors; ++k) damage[k] += b.tiles[i].pawns[k] * b.tiles[i].n;
  std::vector<SeatResult> out(players_);
  for (int seat = 0; seat < players_; ++seat) {
    SeatResult& r = out[seat];
    const int own = players_ == 2 ? 2 * seat : seat;
    if (players_ == 2) {
      r.score = at_edge[own] * at_edge[own + 1] - b.supply[own] - b.supply[own + 1];
      r.damage = damage[own] + damage[own + 1];
    } else {
      r.score = at_edge[own] - b.supply[own];
      r.damage = damage[own];
    }
  }
  const auto best = *std::min_element(out.begin(), out.end(), [](const SeatResult& a, const SeatResult& c) {
    return a.score != c.score ? a.score > c.score : a.damage < c.damage;
  });
  for (SeatResult& r : out) r.winner = r.score == best.score && r.damage == best.damage;
  return out;
}

ContestSpec Contest::to_spec(const ContestState& s) const {
  ContestSpec spec;
  spec.board = game_.to_spec(s.board);
  spec.board.next = s.seat;
  spec.players = players_;
  spec.passes = s.passes;
  for (int k = 0; k < 3; ++k) spec.neutral[k] = players_ == 3 ? s.neutral[k] : 0;
  return spec;
}

}  // namespace sj::onrun
