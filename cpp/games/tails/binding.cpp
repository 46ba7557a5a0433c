// Tails on Fire bindings. Positions come in as the Python layer's native
// dicts (cards 1..10 with 10 the trickster, owner and turn 6 the Rogue) and
// go out the same way; the engine validates the rules and names the field.
// The engine and searches run without the GIL.
#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>

#include "bindings/common.hpp"
#include "core/error.hpp"
#include "games/tails/tails.hpp"

namespace sj::bindings {
namespace {

using namespace sj::tails;
using FireTuple = std::tuple<int, int>;

std::vector<FireCard> fires(const py::handle& h) {
  std::vector<FireCard> out;
  for (const auto& [s, f] : h.cast<std::vector<FireTuple>>()) out.push_back({s, f});
  return out;
}

Position from_native(const py::dict& d) {
  Position p;
  p.choose = d["choose"].cast<bool>();
  p.hero = d["hero"].cast<int>();
  for (const py::handle& ph : d["players"].cast<py::list>()) {
    const py::dict pd = ph.cast<py::dict>();
    PlayerSpec pl;
    pl.hand = pd["hand"].cast<std::vector<int>>();
    pl.den = pd["den"].cast<std::vector<int>>();
    pl.exhausted = pd["exhausted"].cast<std::vector<int>>();
    pl.bonfire = pd["bonfire"].cast<int>();
    for (const py::handle& sh : pd["stacks"].cast<py::list>()) {
      const py::tuple st = sh.cast<py::tuple>();
      pl.stacks.push_back({st[0].cast<int>(), fires(st[1])});
    }
    p.players.push_back(pl);
  }
  p.first = d["first"].cast<int>();
  p.turn = d["turn"].cast<int>();
  p.lap = d["lap"].cast<int>();
  p.lap_given = d["lap_given"].cast<bool>();
  p.start_number = d["start_number"].cast<int>();
  for (const auto& [o, c] : d["discard"].cast<std::vector<std::tuple<int, int>>>()) p.discard.push_back({o, c});
  p.iguana = fires(d["iguana"]);
  if (!d["rogue"].is_none()) {
    const py::dict r = d["rogue"].cast<py::dict>();
    p.rogue.present = true;
    p.rogue.deck = r["deck"].cast<std::vector<int>>();
    p.rogue.known = r["known"].cast<bool>();
    p.rogue.reserve = r["reserve"].cast<std::vector<int>>();
  }
  return p;
}

py::list fire_list(const std::vector<FireCard>& f) {
  py::list out;
  for (const FireCard& c : f) out.append(py::make_tuple(c.start, c.flames));
  return out;
}

py::dict to_native(const Position& p) {
  py::dict d;
  d["choose"] = p.choose;
  d["hero"] = p.hero;
  py::list players;
  for (const PlayerSpec& pl : p.players) {
    py::dict pd;
    pd["hand"] = pl.hand;
    pd["den"] = pl.den;
    pd["exhausted"] = pl.exhausted;
    pd["bonfire"] = pl.bonfire;
    py::list stacks;
    for (const StackSpec& s : pl.stacks) stacks.append(py::make_tuple(s.top, fire_list(s.fires)));
    pd["stacks"] = stacks;
    players.append(pd);
  }
  d["players"] = players;
  d["first"] = p.first;
  d["turn"] = p.turn;
  d["lap"] = p.lap;
  d["lap_given"] = p.lap_given;
  d["start_number"] = p.start_number;
  py::list discard;
  for (const PileCard& c : p.discard) discard.append(py::make_tuple(c.owner, c.card));
  d["discard"] = discard;
  d["iguana"] = fire_list(p.iguana);
  if (p.rogue.present) {
    py::dict r;
    r["deck"] = p.rogue.deck;
    r["known"] = p.rogue.known;
    r["reserve"] = p.rogue.reserve;
    d["rogue"] = r;
  } else {
    d["rogue"] = py::none();
  }
  return d;
}

std::string fraction(int64_t num, int64_t den) {
  const int64_t g = std::gcd(num, den);
  if (g != 0) {
    num /= g;
    den /= g;
  }
  return std::to_string(num) + "/" + std::to_string(den);
}

py::dict value_dict(const Value& v, int players, bool exact) {
  py::dict d;
  if (!exact) {
    d["flames"] = py::none();
    d["winner"] = py::none();
    return d;
  }
  py::list flames;
  for (int i = 0; i < players; ++i) flames.append(fraction(v.flames[i], kDen));
  py::dict winner;
  for (int i = 0; i < players; ++i) winner[py::str(std::to_string(i))] = fraction(v.win[i], kDen);
  winner["rogue"] = fraction(v.win[kRogue], kDen);
  winner["none"] = fraction(v.win[kNoOwner], kDen);
  d["flames"] = flames;
  d["winner"] = winner;
  return d;
}

py::dict solve_stats(const SolveStats& s) {
  py::dict d = counts_dict(s.nodes, s.seconds, s.stopped_by);
  put_table_stats(d, s.table);
  d["table_used"] = s.table.used;
  return d;
}

py::dict round_dict(const RoundEnd& e) {
  py::dict d;
  d["winner"] = e.winner;
  d["winning_card"] = e.winning_card;
  d["winning_value"] = e.winning_value;
  d["flames"] = e.final_flames;
  d["game_over"] = e.game_over;
  d["winners"] = e.winners;
  d["next"] = e.game_over ? py::object(py::none()) : py::object(to_native(e.next));
  return d;
}

}  // namespace

SMOKEJUMPER_GAME(tails, "Tails on Fire: open-hand hunts, the 3-card choice, the Rogue") {
  m.attr("TRICK") = kTrick;
  m.attr("ROGUE") = kRogue;
  m.attr("MAX_PLAYERS") = kMaxPlayers;

  m.def(
      "check",
      [](const py::dict& native) {
        const Position p = from_native(native);
        py::dict d;
        if (p.choose) {
          validate(p);
          d["position"] = to_native(normalized(p));
          d["over"] = 0;
          d["turn"] = -1;
          d["moves"] = py::list();
          d["rogue_draw"] = false;
          d["start_number"] = 0;
          py::list flames;
          for (const PlayerSpec& pl : p.players) flames.append(flames_of(pl));
          d["flames"] = flames;
          return d;
        }
        const Hunt hunt(p);
        std::vector<PileCard> pile = p.discard;
        std::vector<StepReport> steps;
        const State s = settle(hunt, hunt.initial(), &pile, &steps);
        d["position"] = to_native(write_position(p, hunt, s, pile));
        d["over"] = static_cast<int>(s.over);
        d["turn"] = static_cast<int>(s.turn);
        d["moves"] = hunt.moves(s);
        d["rogue_draw"] = hunt.rogue_chance(s);
        d["start_number"] = s.top_owner == kNoOwner ? hunt.start_number(s) : 0;
        py::list flames;
        for (const PlayerSpec& pl : p.players) flames.append(flames_of(pl));
        d["flames"] = flames;
        d["rogue_steps"] = steps.size();
        return d;
      },
      py::arg("position"), "Validate a position; its status and the legal moves of the seat to move.");

  m.def(
      "solve",
      [](const py::dict& native, uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb, Control* control) {
        const Position p = from_native(native);
        HuntAnswer a;
        int n = static_cast<int>(p.players.size());
        int turn = 0;
        {
          py::gil_scoped_release release;
          const Hunt hunt(p);
          turn = settle(hunt, hunt.initial(), nullptr, nullptr).turn;
          a = solve_hunt(p, make_limits(max_nodes, max_seconds, max_memory_mb), control);
        }
        py::dict d = value_dict(a.value, n, a.exact);
        py::list moves;
        for (const MoveValue& mv : a.moves) {
          py::dict e = value_dict(mv.value, n, a.exact);
          e["move"] = mv.move;
          moves.append(e);
        }
        d["turn"] = turn;
        d["moves"] = moves;
        d["best"] = a.best < 0 ? py::object(py::none()) : py::object(py::int_(a.moves[a.best].move));
        d["line"] = a.has_line ? py::object(py::cast(a.line)) : py::object(py::none());
        // A line stops at a draw from a hidden deck of two or more cards, and a
        // one-card deck's draw is forced (replay takes it unasked): none to name.
        d["rogue_draws"] = a.has_line ? py::object(py::list()) : py::object(py::none());
        d["stats"] = solve_stats(a.stats);
        return d;
      },
      py::arg("position"), py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"),
      py::arg("control") = nullptr, "The open-hand hunt value, every move's value, the best move and the line.");

  m.def(
      "replay",
      [](const py::dict& native, const std::vector<int>& line, const std::vector<int>& draws) {
        const Position p = from_native(native);
        const ReplayResult r = replay(p, line, draws);
        py::list steps;
        for (const StepReport& s : r.steps) steps.append(py::make_tuple(s.owner, s.played, s.drawn));
        py::dict d;
        d["steps"] = steps;
        d["moves_played"] = r.moves_played.size();
        d["error"] = r.error.empty() ? py::object(py::none()) : py::object(py::str(r.error));
        d["needs_draw"] = r.needs_draw;
        d["position"] = to_native(r.position);
        d["over"] = static_cast<int>(r.state.over);
        d["round"] = r.round.ended ? py::object(round_dict(r.round)) : py::object(py::none());
        return d;
      },
      py::arg("position"), py::arg("line"), py::arg("draws"),
      "Play human moves in order, the Rogue by its script between them.");

  m.def(
      "deal", [](uint64_t seed, int players, bool rogue, bool known) { return to_native(deal(seed, players, rogue, known)); },
      py::arg("seed"), py::arg("players"), py::arg("rogue"), py::arg("known"), "A seeded set-up: the choose position.");

  m.def(
      "hunt_from_choice",
      [](const py::dict& native, const std::vector<std::vector<int>>& chosen) {
        const Position p = from_native(native);
        validate(p);
        if (!p.choose) throw InvalidInput("position.phase: a choose position is needed here");
        if (chosen.size() != p.players.size()) throw InvalidInput("chosen: one choice per seat");
        for (size_t i = 0; i < chosen.size(); ++i) {
          const auto options = choices_of(p.players[i].hand);
          std::vector<int> c = chosen[i];
          std::sort(c.begin(), c.end());
          if (std::find(options.begin(), options.end(), c) == options.end())
            throw InvalidInput("chosen." + std::to_string(i) + ": not 3 cards of seat " + std::to_string(i) + "'s hand");
        }
        return to_native(hunt_from_choice(p, chosen));
      },
      py::arg("position"), py::arg("chosen"), "The hunt once every seat has chosen.");

  m.def(
      "choices",
      [](const std::vector<int>& hand) { return choices_of(hand); }, py::arg("hand"),
      "Every choice of a hand: its 3-card subsets (all of it when smaller).");

  m.def(
      "choose",
      [](const py::dict& native, uint64_t max_profiles, uint64_t samples, uint64_t seed, uint64_t max_nodes,
         double max_seconds, uint64_t max_memory_mb, Control* control, bool draw_rogue_order) {
        const Position p = from_native(native);
        ChoiceAnswer a;
        {
          py::gil_scoped_release release;
          a = choose(p, max_profiles, samples, seed, make_limits(max_nodes, max_seconds, max_memory_mb), control,
                     draw_rogue_order);
        }
        py::list choices;
        for (const ChoiceValue& c : a.choices) {
          py::dict e;
          e["cards"] = c.cards;
          e["done"] = c.done;
          e["num"] = c.num;
          e["den"] = c.den;
          e["mean"] = c.mean;
          e["lo"] = c.lo;
          e["hi"] = c.hi;
          e["samples"] = c.samples;
          choices.append(e);
        }
        py::dict d;
        d["exact"] = a.exact;
        const char* sampled_by = a.sampled_by == SampledBy::kProfiles ? "max_profiles"
                                 : a.sampled_by == SampledBy::kLimit  ? "limit"
                                                                      : "rogue_order";
        d["sampled_by"] = a.sampled_by == SampledBy::kNone ? py::object(py::none()) : py::object(py::str(sampled_by));
        d["profiles"] = a.profiles;
        d["choices"] = choices;
        d["stats"] = solve_stats(a.stats);
        return d;
      },
      py::arg("position"), py::arg("max_profiles"), py::arg("samples"), py::arg("seed"), py::arg("max_nodes"),
      py::arg("max_seconds"), py::arg("max_memory_mb"), py::arg("control") = nullptr,
      py::arg("draw_rogue_order") = false,
      "Every 3-card choice of the hero with its expected flames against uniformly random opponents.");
}

}  // namespace sj::bindings
