// Wild Fire! bindings. Positions come in as plain tuples (the Python layer
// has already read the JSON, checked shapes and filled in defaults); answers
// go out as dicts in the spec's JSON shape. Searches run without the GIL.
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include "bindings/common.hpp"
#include "core/bits.hpp"
#include "core/error.hpp"
#include "games/wildfire/analysis.hpp"
#include "games/wildfire/plan.hpp"
#include "games/wildfire/hint.hpp"
#include "games/wildfire/wildfire.hpp"

namespace sj::bindings {
namespace {

using namespace sj::wildfire;
using TileTuple = std::tuple<int, int, int, int, std::vector<int>>;  // q, r, n, spaces, pawns
using KindTuple = std::pair<int, int>;                                 // n, spaces
// tiles, turn, supply, level, known, rest (deal_rest or pool), turns_left,
// drawn (n 0: not given)
using PositionTuple = std::tuple<std::vector<TileTuple>, int, std::vector<int>, int, bool,
                                 std::vector<KindTuple>, int, KindTuple>;
using MoveTuple = std::tuple<int, int, int, int, int, int>;  // place q, r, color (-1 none), tile q, r, count

PositionSpec make_spec(const PositionTuple& t) {
  const auto& [tiles, turn, supply, level, known, rest, turns_left, drawn] = t;
  PositionSpec spec;
  for (const auto& [q, r, n, spaces, pawns] : tiles) spec.tiles.push_back({q, r, n, spaces, pawns});
  spec.turn = turn;
  spec.supply = supply;
  spec.level = level;
  spec.known = known;
  for (const auto& [n, spaces] : rest) spec.rest.push_back({n, spaces});
  spec.turns_left = turns_left;
  if (drawn.first) spec.drawn = Kind{drawn.first, drawn.second};
  return spec;
}

std::unique_ptr<Game> make_game(const PositionTuple& t) {
  const PositionSpec spec = make_spec(t);
  py::gil_scoped_release release;
  return std::make_unique<Game>(spec);
}

py::dict kind_dict(const Kind& k) {
  py::dict d;
  d["n"] = k.n;
  d["spaces"] = k.spaces;
  return d;
}

py::list kinds_list(const std::vector<Kind>& kinds) {
  py::list out;
  for (const Kind& k : kinds) out.append(kind_dict(k));
  return out;
}

py::dict position_dict(const PositionSpec& spec) {
  const py::list tiles = tiles_list(spec.tiles);
  py::dict d;
  d["tiles"] = tiles;
  d["turn"] = spec.turn;
  d["supply"] = spec.supply;
  d["level"] = spec.level;
  if (spec.known) {
    d["deal_rest"] = kinds_list(spec.rest);
  } else {
    d["pool"] = kinds_list(spec.rest);
    d["turns_left"] = spec.turns_left;
    if (spec.drawn) d["drawn"] = kind_dict(*spec.drawn);
  }
  return d;
}

py::list cell_list(Axial a) {
  py::list l;
  l.append(a.q);
  l.append(a.r);
  return l;
}

py::dict move_dict(const Game& game, const Move& m) {
  py::dict d;
  d["place"] = cell_list(game.absolute(m.pq, m.pr));
  if (m.color < 0) {
    d["pawns"] = py::none();
  } else {
    py::dict p;
    p["color"] = static_cast<int>(m.color);
    p["tile"] = cell_list(game.absolute(m.tq, m.tr));
    p["count"] = static_cast<int>(m.count);
    d["pawns"] = p;
  }
  return d;
}

py::list moves_list(const Game& game, const std::vector<Move>& moves) {
  py::list out;
  for (const Move& m : moves) out.append(move_dict(game, m));
  return out;
}

const char* status_name(const Game& game, const State& s) {
  if (game.turns_left(s) > 0) return "ongoing";
  return game.won(s) ? "win" : "loss";
}

// A move in the engine's relative cells, or why it cannot be one. Cells far
// from the table cannot be hottest cells or tiles, so they are refused here.
std::optional<Move> to_move(const Game& game, const MoveTuple& t, std::string* why) {
  const auto [pq, pr, color, tq, tr, count] = t;
  const Axial o = game.absolute(0, 0);
  auto near = [&](int q, int r) {
    return std::abs(static_cast<long>(q) - o.q) <= 100 && std::abs(static_cast<long>(r) - o.r) <= 100;
  };
  if (!near(pq, pr)) {
    *why = "place: (" + std::to_string(pq) + ", " + std::to_string(pr) + ") is not a hottest cell";
    return std::nullopt;
  }
  Move m;
  m.pq = static_cast<int8_t>(pq - o.q);
  m.pr = static_cast<int8_t>(pr - o.r);
  if (color < 0) return m;
  if (!near(tq, tr)) {
    *why = "pawns.tile: no tile at (" + std::to_string(tq) + ", " + std::to_string(tr) + ")";
    return std::nullopt;
  }
  if (color >= game.colors()) {
    *why = "pawns.color: colour " + std::to_string(color) + " does not exist";
    return std::nullopt;
  }
  if (count < 1 || count > kMaxPerTurn) {
    *why = "pawns.count: " + std::to_string(count) + " must be 1..3";
    return std::nullopt;
  }
  m.color = static_cast<int8_t>(color);
  m.tq = static_cast<int8_t>(tq - o.q);
  m.tr = static_cast<int8_t>(tr - o.r);
  m.count = static_cast<uint8_t>(count);
  return m;
}

}  // namespace

SMOKEJUMPER_GAME(wildfire, "Wild Fire! solitaire") {
  m.attr("MAX_TILES") = kMaxTiles;
  m.attr("MAX_COLORS") = kMaxColors;
  m.attr("MAX_SUPPLY_PER_COLOR") = kMaxSupplyPerColor;
  m.attr("MAX_COORDINATE") = kMaxCoordinate;
  m.attr("MAX_HINT_SAMPLES") = kMaxHintSamples;

  m.def(
      "check",
      [](const PositionTuple& position) {
        const auto game = make_game(position);
        const State& s = game->initial();
        py::dict d;
        d["status"] = status_name(*game, s);
        d["turn"] = game->turn(s);
        d["turns_left"] = game->turns_left(s);
        py::list hot;
        if (game->turns_left(s) > 0)
          for (Axial a : game->hottest(s)) hot.append(cell_list(game->absolute(a.q, a.r)));
        d["hottest"] = hot;
        d["pawns_allowed"] = game->turns_left(s) > 0 && s.count >= game->level();
        d["moves"] = moves_list(*game, game->legal_moves(s));
        d["position"] = position_dict(game->to_spec(s));
        return d;
      },
      py::arg("position"),
      "Validate a position; return its status, hottest cells and every legal move (known order).");

  m.def(
      "dead_ends",
      [](const PositionTuple& position) {
        const auto game = make_game(position);
        if (!game->known()) throw InvalidInput("dead_ends: the searches test known-order positions only");
        const DeadEnds e = dead_ends(*game, game->initial());
        py::dict d;
        d["hopeless"] = e.hopeless;
        d["colours_cannot_join"] = e.colours_cannot_join;
        d["too_few_open_ones"] = e.too_few_open_ones;
        return d;
      },
      py::arg("position"),
      "The searches' dead-end tests, each on its own (for tests: true only when no win exists).");

  m.def(
      "solve",
      [](const PositionTuple& position, uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb,
         Control* control, bool use_table, bool use_pruning, bool use_layouts) {
        const auto game = make_game(position);
        SolveResult r;
        {
          py::gil_scoped_release release;
          r = solve(*game, game->initial(), make_limits(max_nodes, max_seconds, max_memory_mb), control,
                    ProofOptions{use_table, use_pruning, false}, use_layouts);
        }
        py::dict d;
        d["verdict"] = verdict_name(r.verdict);
        d["line"] = r.verdict == Verdict::kWin ? py::object(moves_list(*game, r.line)) : py::none();
        py::dict stats = stats_dict(r.stats);
        stats["layouts"] = r.layouts.layouts;
        stats["layouts_refuted"] = r.layouts.refuted;
        stats["pawn_plan_nodes"] = r.layouts.plan_nodes;
        stats["decided_by"] = r.verdict == Verdict::kUnknown ? py::object(py::none())
                              : py::str(r.by_layouts ? "layouts" : "moves");
        d["stats"] = stats;
        return d;
      },
      py::arg("position"), py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"),
      py::arg("control") = nullptr, py::arg("use_table") = true, py::arg("use_pruning") = true,
      py::arg("use_layouts") = true);

  m.def(
      "hint",
      [](const PositionTuple& position, int samples, uint64_t seed, uint64_t sample_nodes, int workers,
         uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb, Control* control) {
        const PositionSpec spec = make_spec(position);
        HintOptions options;
        options.samples = samples;
        options.seed = seed;
        options.sample_nodes = sample_nodes;
        options.workers = workers;
        options.limits = make_limits(max_nodes, max_seconds, max_memory_mb);
        HintResult r;
        std::unique_ptr<Game> game;
        {
          py::gil_scoped_release release;
          r = hint(spec, options, control);
          game = std::make_unique<Game>(spec);
        }
        py::list choices;
        for (const HintChoice& c : r.choices) {
          py::dict d;
          d["move"] = move_dict(*game, c.move);
          d["wins"] = c.wins;
          d["losses"] = c.losses;
          d["unknown"] = c.unknown;
          choices.append(d);
        }
        py::dict stats = counts_dict(r.nodes, r.seconds, r.stopped_by);
        stats["solves"] = r.solves;
        stats["workers"] = r.workers;
        py::dict d;
        d["exact"] = r.exact;
        d["drawn"] = kind_dict(r.drawn);
        d["samples"] = r.samples;
        d["samples_requested"] = r.requested;
        d["seed"] = seed;
        d["moves"] = choices;
        d["stats"] = stats;
        return d;
      },
      py::arg("position"), py::arg("samples"), py::arg("seed"), py::arg("sample_nodes"), py::arg("workers"),
      py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"), py::arg("control") = nullptr,
      "Every legal action with its verdicts over the sampled deals (hidden order, drawn tile given) "
      "or the known deal; moves in legal-move order.");

  m.def(
      "sample_deals",
      [](const PositionTuple& position, int samples, uint64_t seed) {
        const PositionSpec spec = make_spec(position);
        std::vector<std::vector<Kind>> deals;
        {
          py::gil_scoped_release release;
          deals = sample_deals(spec, samples, seed);
        }
        py::list out;
        for (const auto& deal : deals) out.append(kinds_list(deal));
        return out;
      },
      py::arg("position"), py::arg("samples"), py::arg("seed"),
      "The tiles drawn after this turn's tile in each deal hint() samples.");

  m.def(
      "replay",
      [](const PositionTuple& position, const std::vector<MoveTuple>& line) {
        const auto game = make_game(position);
        State s = game->initial();
        py::list steps;
        py::object error = py::none();
        for (size_t k = 0; k < line.size(); ++k) {
          std::string why;
          const std::optional<Move> mv = to_move(*game, line[k], &why);
          if (mv && !game->legal(s, *mv, &why)) why = why.empty() ? "illegal" : why;
          if (!mv || !why.empty()) {
            error = py::str("move " + std::to_string(k) + ": " + why);
            break;
          }
          s = game->apply(s, *mv);
          py::dict step;
          step["move"] = move_dict(*game, *mv);
          step["status"] = status_name(*game, s);
          step["position"] = position_dict(game->to_spec(s));
          steps.append(step);
        }
        py::dict d;
        d["status"] = status_name(*game, s);
        d["steps"] = steps;
        d["position"] = position_dict(game->to_spec(s));
        d["error"] = error;
        return d;
      },
      py::arg("position"), py::arg("line"),
      "Play moves through the engine, step by step; stops at the first illegal one.");

  m.def(
      "score",
      [](const PositionTuple& position, int players) {
        const auto game = make_game(position);
        const State& s = game->initial();
        const ScoreSheet sheet = score_sheet(*game, s, players);
        py::list regions;
        for (const ScoredRegion& region : sheet.regions) {
          std::vector<Axial> cells;
          for_each_bit(region.tiles, [&](int i) { cells.push_back(game->cell(s, i)); });
          std::sort(cells.begin(), cells.end(),
                    [](Axial a, Axial b) { return a.q != b.q ? a.q < b.q : a.r < b.r; });
          py::list tiles;
          for (Axial a : cells) tiles.append(cell_list(a));
          py::dict d;
          d["player"] = region.player;
          d["color"] = region.color;
          d["tiles"] = tiles;
          d["value"] = region.value;
          regions.append(d);
        }
        py::dict d;
        d["colors"] = sheet.colors;
        d["scores"] = sheet.scores;
        d["tie_breaks"] = sheet.tie_breaks;
        d["regions"] = regions;
        return d;
      },
      py::arg("position"), py::arg("players"),
      "Each player's score and tie-break (their most valuable region) and every scored wooded region, "
      "on the position's current free edges.");
}

}  // namespace sj::bindings
