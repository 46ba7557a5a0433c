// Fire! bindings. Positions come in as plain tuples (the Python layer has
// already read the JSON and filled in defaults); answers go out as dicts in
// the spec's JSON shape. Searches run without the GIL.
#include <memory>
#include <optional>
#include <tuple>

#include "bindings/common.hpp"
#include "core/error.hpp"
#include "games/fire/analysis.hpp"
#include "games/fire/fire.hpp"

namespace sj::bindings {
namespace {

using namespace sj::fire;
using BatteryTuple = std::pair<int, int>;  // energy, crosshairs
using AlienTuple = std::pair<std::array<int, 4>, int>;  // strengths, hits
using PlayerTuple = std::tuple<std::vector<std::vector<BatteryTuple>>, std::vector<BatteryTuple>,
                               std::vector<BatteryTuple>, std::vector<BatteryTuple>, int, bool>;
using PositionTuple =
    std::tuple<bool, std::vector<AlienTuple>, std::vector<PlayerTuple>, int, std::optional<BatteryTuple>>;
using MoveTuple = std::tuple<bool, int, int, std::optional<BatteryTuple>>;  // give, weapon, target, destroy

Battery battery(const BatteryTuple& b) { return Battery{b.first, b.second}; }

std::vector<Battery> batteries(const std::vector<BatteryTuple>& pile) {
  std::vector<Battery> out;
  for (const BatteryTuple& b : pile) out.push_back(battery(b));
  return out;
}

PositionSpec make_spec(const PositionTuple& t) {
  const auto& [team, aliens, players, turn, revealed] = t;
  PositionSpec spec;
  spec.team = team;
  for (const auto& [strengths, hits] : aliens) spec.aliens.push_back({strengths, hits});
  for (const auto& [weapons, draw, discard, destroyed, exchanges, order_known] : players) {
    PlayerSpec p;
    for (const auto& w : weapons) p.weapons.push_back(batteries(w));
    p.draw = batteries(draw);
    p.discard = batteries(discard);
    p.destroyed = batteries(destroyed);
    p.exchanges = exchanges;
    p.order_known = order_known;
    spec.players.push_back(p);
  }
  spec.turn = turn;
  if (revealed) spec.revealed = battery(*revealed);
  return spec;
}

std::unique_ptr<Game> make_game(const PositionTuple& t) {
  const PositionSpec spec = make_spec(t);
  py::gil_scoped_release release;
  return std::make_unique<Game>(spec);
}

py::object battery_dict(const std::optional<Battery>& b) {
  if (!b) return py::none();
  py::dict d;
  d["energy"] = b->energy;
  d["crosshairs"] = b->crosshairs;
  return d;
}

py::list pile_list(const std::vector<Battery>& pile) {
  py::list out;
  for (const Battery& b : pile) out.append(battery_dict(b));
  return out;
}

py::dict player_dict(const PlayerSpec& p, bool team) {
  py::dict d;
  py::list weapons;
  for (const auto& w : p.weapons) weapons.append(pile_list(w));
  d["weapons"] = weapons;
  d["draw"] = pile_list(p.draw);
  d["discard"] = pile_list(p.discard);
  d["destroyed"] = pile_list(p.destroyed);
  if (team) {
    d["exchanges"] = p.exchanges;
    d["order_known"] = p.order_known;
  }
  return d;
}

py::dict position_dict(const PositionSpec& spec) {
  py::dict d;
  py::list aliens;
  for (const AlienSpec& a : spec.aliens) {
    py::dict al;
    al["strengths"] = a.strengths;
    al["hits"] = a.hits;
    aliens.append(al);
  }
  if (spec.team) {
    d["mode"] = "team";
    d["aliens"] = aliens;
    py::list players;
    bool known = true;
    for (const PlayerSpec& p : spec.players) {
      players.append(player_dict(p, true));
      known = known && p.order_known;
    }
    d["players"] = players;
    d["turn"] = spec.turn;
    d["revealed"] = battery_dict(spec.revealed);
    d["order_known"] = known;
    return d;
  }
  d["aliens"] = aliens;
  py::dict solo = player_dict(spec.players[0], false);
  for (auto item : solo) d[item.first] = item.second;
  d["revealed"] = battery_dict(spec.revealed);
  d["order_known"] = spec.players[0].order_known;
  return d;
}

py::dict move_dict(const Game& game, const Move& m) {
  const MoveSpec spec = game.move_spec(m);
  py::dict d;
  if (spec.give) {
    d["give"] = true;
    return d;
  }
  d["weapon"] = spec.weapon;
  d["target"] = spec.target >= 0 ? py::object(py::int_(spec.target)) : py::none();
  d["destroy"] = battery_dict(spec.destroy);
  return d;
}

py::list moves_list(const Game& game, const std::vector<Move>& moves) {
  py::list out;
  for (const Move& m : moves) out.append(move_dict(game, m));
  return out;
}

const char* status_name(NodeKind k) {
  switch (k) {
    case NodeKind::kWin: return "win";
    case NodeKind::kLoss: return "loss";
    case NodeKind::kChance: return "reveal";
    case NodeKind::kDecision: return "decision";
  }
  return "decision";
}

const char* decided_by_name(DecidedBy d) {
  switch (d) {
    case DecidedBy::kSplit: return "split";
    case DecidedBy::kFocused: return "focused";
    case DecidedBy::kCertain: return "certain";
    case DecidedBy::kExpectimax: return "expectimax";
  }
  return "expectimax";
}

void put_value(py::dict& d, const Bounds& b) {
  d["interval"] = py::make_tuple(b.lo, b.hi);
  d["exact"] = b.exact();
  d["win_probability"] = b.exact() ? (b.lo + b.hi) / 2 : b.lo;
}

py::list choices_list(const Game& game, const std::vector<Choice>& choices) {
  py::list out;
  for (const Choice& c : choices) {
    py::dict d;
    d["move"] = move_dict(game, c.move);
    d["equivalent"] = moves_list(game, c.equivalent);
    put_value(d, c.value);
    out.append(d);
  }
  return out;
}

// A game and one state of it, as the answer to apply/reveal.
py::dict state_answer(const Game& game, const State& s) {
  py::dict d;
  d["status"] = status_name(game.kind(s));
  d["position"] = position_dict(game.to_spec(s));
  return d;
}

}  // namespace

SMOKEJUMPER_GAME(fire, "Fire! battery sequencing") {
  m.attr("MAX_ALIENS") = kMaxAliens;
  m.attr("MAX_WEAPONS") = kMaxWeapons;
  m.attr("MAX_BATTERIES") = kMaxBatteries;
  m.attr("MAX_CROSSHAIRS") = kMaxCrosshairs;
  m.attr("MAX_STRENGTH") = kMaxStrength;

  m.def(
      "check",
      [](const PositionTuple& position) {
        const auto game = make_game(position);
        py::dict d = state_answer(*game, game->initial());
        d["moves"] = moves_list(*game, game->legal_moves(game->initial()));
        return d;
      },
      py::arg("position"),
      "Validate a position; return its status (win, loss, reveal or decision), the position "
      "after anything automatic (a reshuffle, a pass, a known reveal), and every legal move.");

  m.def(
      "key",
      [](const PositionTuple& position) {
        const auto game = make_game(position);
        const Game::Key k = game->key(game->initial());
        return py::make_tuple(k.lo, k.hi);
      },
      py::arg("position"),
      "The canonical key of a position (for tests: symmetric positions share it).");

  m.def(
      "bounds",
      [](const PositionTuple& position) {
        const auto game = make_game(position);
        py::dict d;
        d["upper_bound"] = game->upper_bound(game->initial());
        d["cheap_upper_bound"] = game->cheap_upper_bound(game->initial());
        return d;
      },
      py::arg("position"),
      "The searches' upper bounds on the win probability (for tests: never below the true value).");

  m.def(
      "solve",
      [](const PositionTuple& position, uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb,
         Control* control, bool use_pruning, bool use_dominance, bool use_certain, bool use_focus, bool use_split) {
        const auto game = make_game(position);
        SolveResult r;
        {
          py::gil_scoped_release release;
          r = solve(*game, make_limits(max_nodes, max_seconds, max_memory_mb), control,
                    SolveOptions{ExpectimaxOptions{use_pruning, use_dominance}, use_certain, use_focus, use_split});
        }
        py::dict d;
        put_value(d, r.value);
        d["won_for_certain"] = r.certain == Certain::kUnknown ? py::object(py::none()) : py::bool_(r.certain == Certain::kWon);
        py::dict stats = stats_dict(r.stats);
        stats["decided_by"] = decided_by_name(r.decided_by);
        d["stats"] = stats;
        return d;
      },
      py::arg("position"), py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"),
      py::arg("control") = nullptr, py::arg("use_pruning") = true, py::arg("use_dominance") = true,
      py::arg("use_certain") = true, py::arg("use_focus") = true, py::arg("use_split") = true,
      "The win probability under optimal play: exact, or a proved interval when a limit hit.");

  m.def(
      "hint",
      [](const PositionTuple& position, uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb,
         Control* control) {
        const auto game = make_game(position);
        HintResult r;
        {
          py::gil_scoped_release release;
          r = hint(*game, make_limits(max_nodes, max_seconds, max_memory_mb), control);
        }
        py::dict d = state_answer(*game, game->initial());
        put_value(d, r.value);
        d["moves"] = choices_list(*game, r.choices);
        py::list reveals;
        for (const RevealChoices& rc : r.reveals) {
          py::dict e;
          e["battery"] = battery_dict(game->battery(rc.kind));
          e["probability"] = rc.probability;
          put_value(e, rc.value);
          e["moves"] = choices_list(*game, rc.choices);
          reveals.append(e);
        }
        d["reveals"] = reveals;
        d["stats"] = stats_dict(r.stats);
        return d;
      },
      py::arg("position"), py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"),
      py::arg("control") = nullptr,
      "Every distinct choice at the current decision with its win probability, best first; "
      "before a hidden reveal, the same for each battery that may be revealed.");

  m.def(
      "split",
      [](const PositionTuple& position, uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb,
         Control* control) {
        const auto game = make_game(position);
        SplitResult r;
        {
          py::gil_scoped_release release;
          r = split_plan(*game, make_limits(max_nodes, max_seconds, max_memory_mb), control);
        }
        py::dict d;
        put_value(d, Bounds{r.value, r.exact ? r.value : 1.0});
        d["aliens"] = py::make_tuple(r.aliens[0], r.aliens[1]);
        d["stats"] = stats_dict(r.stats);
        return d;
      },
      py::arg("position"), py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"),
      py::arg("control") = nullptr,
      "Team mode: the best split of the live aliens between the players, each destroying its share "
      "alone with no more gifts, and its win probability (a proved lower bound on the team's).");

  m.def(
      "apply",
      [](const PositionTuple& position, const MoveTuple& move) {
        const auto game = make_game(position);
        const auto& [give, weapon, target, destroy] = move;
        MoveSpec spec{give, weapon, target, std::nullopt};
        if (destroy) spec.destroy = battery(*destroy);
        const Move chosen = game->move_from_spec(game->initial(), spec);
        const State next = game->apply(game->initial(), chosen);
        py::dict d = state_answer(*game, next);
        d["moves"] = moves_list(*game, game->legal_moves(next));
        return d;
      },
      py::arg("position"), py::arg("move"),
      "The position after a move and everything automatic that follows it, and its legal moves.");

  m.def(
      "reveal",
      [](const PositionTuple& position, const BatteryTuple& revealed) {
        const auto game = make_game(position);
        const State& s = game->initial();
        if (game->kind(s) != NodeKind::kChance)
          throw InvalidInput("reveal: this position is not waiting for a hidden reveal");
        const int k = game->kind_of(battery(revealed));
        std::vector<Child> outcomes;
        game->chance_children(s, outcomes);
        for (const Child& o : outcomes)
          if (o.reveal == k) return state_answer(*game, o.state);
        throw InvalidInput("reveal: no battery {energy " + std::to_string(revealed.first) + ", crosshairs " +
                           std::to_string(revealed.second) + "} in the draw pile of the player on turn");
      },
      py::arg("position"), py::arg("battery"), "The position after revealing this battery from the draw pile.");

  m.def(
      "strategy_move",
      [](const PositionTuple& position) {
        const auto game = make_game(position);
        if (game->kind(game->initial()) != NodeKind::kDecision)
          throw InvalidInput("strategy_move: no battery is revealed here, so there is no choice to make");
        return move_dict(*game, strategy_move(*game, game->initial()));
      },
      py::arg("position"), "The fixed strategy's move at a decision.");

  m.def(
      "strategy",
      [](const PositionTuple& position, uint64_t games, uint64_t seed, uint64_t max_nodes, double max_seconds,
         uint64_t max_memory_mb, Control* control) {
        const auto game = make_game(position);
        SolveResult exact;
        Simulation sim;
        {
          py::gil_scoped_release release;
          const Limits limits = make_limits(max_nodes, max_seconds, max_memory_mb);
          exact = strategy_value(*game, limits, control);
          sim = simulate_strategy(*game, games, seed, limits, control);
        }
        py::dict d;
        put_value(d, exact.value);
        d["games"] = sim.played;
        d["games_requested"] = games;
        d["wins"] = sim.wins;
        d["simulation_stopped_by"] = stop_reason(sim.stopped_by);
        d["stats"] = stats_dict(exact.stats);
        return d;
      },
      py::arg("position"), py::arg("games"), py::arg("seed"), py::arg("max_nodes"), py::arg("max_seconds"),
      py::arg("max_memory_mb"), py::arg("control") = nullptr,
      "The fixed strategy: its exact win probability, and its wins in up to `games` seeded random games.");
}

}  // namespace sj::bindings
