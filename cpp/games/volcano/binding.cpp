// Volcano! bindings. Positions come in as plain tuples (the Python layer has
// already checked shapes and ranges); answers go out as dicts in the spec's
// JSON shape. The engine and searches run without the GIL.
#include <climits>
#include <memory>
#include <optional>
#include <tuple>

#include "bindings/common.hpp"
#include "games/volcano/analysis.hpp"
#include "games/volcano/volcano.hpp"

namespace sj::bindings {
namespace {

using namespace sj::volcano;
using TileTuple = std::tuple<int, int, int, int, int>;  // q, r, n, spaces, pawns
using FlightTuple = std::tuple<int, int, int, int>;     // color, q, r, dir

PositionSpec make_spec(const std::vector<TileTuple>& tiles, std::pair<int, int> volcano,
                       const std::vector<int>& supply, bool standard) {
  PositionSpec spec;
  for (const auto& [q, r, n, spaces, pawns] : tiles) spec.tiles.push_back({q, r, n, spaces, pawns});
  spec.volcano = {volcano.first, volcano.second};
  spec.supply = supply;
  spec.standard = standard;
  return spec;
}

py::dict position_dict(const PositionSpec& spec) {
  const py::list tiles = tiles_list(spec.tiles);
  py::dict volcano;
  volcano["q"] = spec.volcano.q;
  volcano["r"] = spec.volcano.r;
  py::dict d;
  d["tiles"] = tiles;
  d["volcano"] = volcano;
  d["supply"] = spec.supply;
  d["setup"] = spec.standard ? "standard" : "free";
  return d;
}

py::dict flight_dict(const Game& game, Flight f) {
  py::dict d;
  d["color"] = static_cast<int>(f.color);
  d["tile"] = py::make_tuple(game.cell(f.tile).q, game.cell(f.tile).r);
  d["dir"] = static_cast<int>(f.dir);
  return d;
}

py::list flights_list(const Game& game, const std::vector<Flight>& flights) {
  py::list out;
  for (Flight f : flights) out.append(flight_dict(game, f));
  return out;
}

py::list cells_list(const Game& game, const std::vector<int>& cells) {
  py::list out;
  for (int i : cells) out.append(py::make_tuple(game.cell(i).q, game.cell(i).r));
  return out;
}

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::kWin: return "win";
    case Outcome::kLoss: return "loss";
    case Outcome::kOngoing: return "ongoing";
  }
  return "ongoing";
}

// A flight in input terms, or an explanation of why it is not one.
std::optional<Flight> to_flight(const Game& game, const FlightTuple& t, std::string* why) {
  const auto [color, q, r, dir] = t;
  const int cell = game.cell_index({q, r});
  if (cell < 0 || cell == game.volcano_cell()) {
    *why = "no forest tile at (" + std::to_string(q) + ", " + std::to_string(r) + ")";
    return std::nullopt;
  }
  if (color < 0 || color >= game.color_count()) {
    *why = "colour " + std::to_string(color) + " does not exist";
    return std::nullopt;
  }
  if (dir < 0 || dir >= kHexDirections) {
    *why = "direction " + std::to_string(dir) + " must be 0..5";
    return std::nullopt;
  }
  return Flight{static_cast<uint8_t>(color), static_cast<uint8_t>(cell), static_cast<uint8_t>(dir)};
}

}  // namespace

SMOKEJUMPER_GAME(volcano, "Volcano! solitaire") {
  m.attr("MAX_CELLS") = kMaxCells;
  m.attr("MAX_COLORS") = kMaxColors;
  m.attr("MAX_SUPPLY_PER_COLOR") = kMaxSupplyPerColor;
  m.attr("MAX_COORDINATE") = kMaxCoordinate;

  m.def(
      "check",
      [](const std::vector<TileTuple>& tiles, std::pair<int, int> volcano,
         const std::vector<int>& supply, bool standard) {
        std::unique_ptr<Game> game;
        {
          py::gil_scoped_release release;
          game = std::make_unique<Game>(make_spec(tiles, volcano, supply, standard));
        }
        const State& s = game->initial();
        const Outcome status = game->outcome_with_moves(s);
        py::dict d;
        d["status"] = outcome_name(status);
        d["pawns_needed"] = game->pawns_needed(s);
        int plan = 0;
        {
          // No Python object may be touched in here: the GIL is released.
          py::gil_scoped_release release;
          // check is a quick call: a smaller cap than the solver's (exact on
          // 199 of standard seeds 1-200; a lower bound where the cap cuts).
          Limits limits;
          limits.max_nodes = kPlanNodes / 16;
          Budget budget(limits, nullptr);
          plan = game->plan_pawns(s, budget);
        }
        d["plan_pawns"] = plan == INT_MAX ? -1 : plan;
        d["supply_total"] = game->supply_total(s);
        // A game that is over takes no flight, though tiles a plane could
        // reach may remain (a loss leaves them): replay refuses them too.
        py::list moves;
        if (status == Outcome::kOngoing)
          for (const Game::Merged& mc : game->merged_children(s)) {
            py::dict e;
            e["flight"] = flight_dict(*game, mc.child.move);
            e["equivalent"] = flights_list(*game, mc.equivalent);
            moves.append(e);
          }
        d["moves"] = moves;
        return d;
      },
      py::arg("tiles"), py::arg("volcano"), py::arg("supply"), py::arg("standard"),
      "Validate a position; return its status and its distinct legal flights.");

  m.def(
      "bounds",
      [](const std::vector<TileTuple>& tiles, std::pair<int, int> volcano, const std::vector<int>& supply,
         bool standard, uint64_t max_nodes) {
        int needed = 0, needed_shallow = 0, plan = 0;
        bool hopeless = false, deep_hopeless = false;
        {
          py::gil_scoped_release release;
          const Game game(make_spec(tiles, volcano, supply, standard));
          const State& s = game.initial();
          needed = game.pawns_needed(s);
          needed_shallow = game.pawns_needed(s, 1);
          hopeless = game.hopeless(s);
          Limits limits;
          limits.max_nodes = max_nodes;
          Budget plan_budget(limits, nullptr), deep_budget(limits, nullptr);
          plan = game.plan_pawns(s, plan_budget);
          deep_hopeless = game.deep_hopeless(s, deep_budget);
        }
        py::dict d;
        d["pawns_needed"] = needed == INT_MAX ? -1 : needed;
        d["pawns_needed_shallow"] = needed_shallow == INT_MAX ? -1 : needed_shallow;
        d["plan_pawns"] = plan == INT_MAX ? -1 : plan;
        d["hopeless"] = hopeless;
        d["deep_hopeless"] = deep_hopeless;
        return d;
      },
      py::arg("tiles"), py::arg("volcano"), py::arg("supply"), py::arg("standard"), py::arg("max_nodes"),
      "The searches' lower bounds on the pawns a win needs (-1: none can), and their dead-end tests "
      "(for tests: never above the true cost, never true for a winnable position).");

  m.def(
      "solve",
      [](const std::vector<TileTuple>& tiles, std::pair<int, int> volcano,
         const std::vector<int>& supply, bool standard, uint64_t max_nodes, double max_seconds,
         uint64_t max_memory_mb, Control* control, bool use_table, bool use_pruning,
         bool use_sleep_sets) {
        std::unique_ptr<Game> game;
        SolveResult r;
        {
          py::gil_scoped_release release;
          game = std::make_unique<Game>(make_spec(tiles, volcano, supply, standard));
          r = solve(*game, game->initial(), make_limits(max_nodes, max_seconds, max_memory_mb),
                    control, ProofOptions{use_table, use_pruning, use_sleep_sets});
        }
        py::dict d;
        d["verdict"] = verdict_name(r.verdict);
        d["line"] = r.verdict == Verdict::kWin ? py::object(flights_list(*game, r.line)) : py::none();
        d["stats"] = stats_dict(r.stats);
        return d;
      },
      py::arg("tiles"), py::arg("volcano"), py::arg("supply"), py::arg("standard"), py::arg("max_nodes"),
      py::arg("max_seconds"), py::arg("max_memory_mb"), py::arg("control") = nullptr,
      py::arg("use_table") = true, py::arg("use_pruning") = true,
      py::arg("use_sleep_sets") = true);

  m.def(
      "hint",
      [](const std::vector<TileTuple>& tiles, std::pair<int, int> volcano,
         const std::vector<int>& supply, bool standard, uint64_t max_nodes, double max_seconds,
         uint64_t max_memory_mb, Control* control) {
        std::unique_ptr<Game> game;
        HintResult r;
        {
          py::gil_scoped_release release;
          game = std::make_unique<Game>(make_spec(tiles, volcano, supply, standard));
          r = hint(*game, game->initial(), make_limits(max_nodes, max_seconds, max_memory_mb),
                   control);
        }
        py::list moves;
        for (const HintMove& h : r.moves) {
          py::dict e;
          e["flight"] = flight_dict(*game, h.flight);
          e["equivalent"] = flights_list(*game, h.equivalent);
          e["value"] = verdict_name(h.verdict);
          e["line"] = h.verdict == Verdict::kWin ? py::object(flights_list(*game, h.line)) : py::none();
          moves.append(e);
        }
        py::dict d;
        d["moves"] = moves;
        d["stats"] = stats_dict(r.stats);
        return d;
      },
      py::arg("tiles"), py::arg("volcano"), py::arg("supply"), py::arg("standard"), py::arg("max_nodes"),
      py::arg("max_seconds"), py::arg("max_memory_mb"), py::arg("control") = nullptr);

  m.def(
      "replay",
      [](const std::vector<TileTuple>& tiles, std::pair<int, int> volcano,
         const std::vector<int>& supply, bool standard, const std::vector<FlightTuple>& line) {
        const Game game(make_spec(tiles, volcano, supply, standard));
        State s = game.initial();
        py::list steps;
        py::object error = py::none();
        for (size_t k = 0; k < line.size(); ++k) {
          std::string why;
          const std::optional<Flight> f = to_flight(game, line[k], &why);
          if (f && !game.legal(s, *f, &why)) why = why.empty() ? "illegal" : why;
          if (!f || !why.empty()) {
            error = py::str("flight " + std::to_string(k) + ": " + why);
            break;
          }
          FlightReport report;
          s = game.apply(s, *f, &report);
          py::dict step;
          step["flight"] = flight_dict(game, *f);
          step["dropped"] = report.dropped;
          step["extinguished"] = cells_list(game, report.extinguished);
          step["isolated"] = cells_list(game, report.isolated);
          step["status"] = outcome_name(game.outcome_with_moves(s));
          steps.append(step);
        }
        py::dict d;
        d["status"] = outcome_name(game.outcome_with_moves(s));
        d["steps"] = steps;
        d["position"] = position_dict(game.to_spec(s));
        d["error"] = error;
        return d;
      },
      py::arg("tiles"), py::arg("volcano"), py::arg("supply"), py::arg("standard"), py::arg("line"),
      "Play flights through the engine, step by step; stops at the first illegal one.");

  m.def(
      "generate",
      [](uint64_t seed, bool solvable, bool rate, int max_attempts, uint64_t max_nodes,
         double max_seconds, uint64_t max_memory_mb, Control* control) {
        Generated g;
        {
          py::gil_scoped_release release;
          g = generate(seed, solvable, rate, max_attempts,
                       make_limits(max_nodes, max_seconds, max_memory_mb), control);
        }
        const Game game(g.position);
        py::dict d;
        d["position"] = position_dict(g.position);
        d["layout_seed"] = g.layout_seed;
        d["attempts"] = g.attempts;
        const bool solved = solvable || rate;
        d["verdict"] = solved ? py::object(py::str(verdict_name(g.verdict))) : py::none();
        d["line"] = g.verdict == Verdict::kWin ? py::object(flights_list(game, g.line)) : py::none();
        if (rate && g.verdict == Verdict::kWin) {
          py::dict diff;
          diff["winning_share"] = g.difficulty.winning_share;
          diff["steps"] = g.difficulty.steps;
          diff["forced_steps"] = g.difficulty.forced_steps;
          diff["solve_nodes"] = g.difficulty.solve_nodes;
          diff["complete"] = g.difficulty.complete;
          d["difficulty"] = diff;
        } else {
          d["difficulty"] = py::none();
        }
        d["stats"] = solved ? py::object(stats_dict(g.stats)) : py::none();
        return d;
      },
      py::arg("seed"), py::arg("solvable"), py::arg("rate"), py::arg("max_attempts"),
      py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"),
      py::arg("control") = nullptr);
}

}  // namespace sj::bindings
