// On the Run! bindings. Positions come in as plain tuples (the Python layer
// has already checked shapes and ranges, and turned a deal into tiles and
// the rest of the deal); answers go out as dicts in the spec's JSON shape.
// The engine and the searches run without the GIL.
#include <memory>
#include <optional>
#include <tuple>

#include "bindings/common.hpp"
#include "core/error.hpp"
#include "games/onrun/convert.hpp"

namespace sj::bindings {
namespace onrun_io {

PositionSpec make_spec(const std::vector<TileTuple>& tiles, const std::vector<EdgeTuple>& edge,
                       const std::vector<int>& supply, int next, const std::vector<NewTuple>& rest) {
  PositionSpec spec;
  for (size_t i = 0; i < tiles.size(); ++i) {
    const auto& [q, r, n, spaces, pawns] = tiles[i];
    if (pawns.size() != kColors)
      throw InvalidInput("position.tiles." + std::to_string(i) + ".pawns: not four counts");
    TileSpec t{q, r, n, spaces, {}};
    for (int k = 0; k < kColors; ++k) t.pawns[k] = pawns[k];
    spec.tiles.push_back(t);
  }
  for (const auto& [q, r, color] : edge) spec.edge.push_back({q, r, color});
  if (supply.size() != kColors) throw InvalidInput("position.supply: not four counts");
  for (int k = 0; k < kColors; ++k) spec.supply[k] = supply[k];
  spec.next = next;
  for (const auto& [n, spaces] : rest) spec.deal_rest.push_back({n, spaces});
  return spec;
}

py::tuple cell_pair(Cell c) { return py::make_tuple(c.q, c.r); }

py::dict move_dict(const Move& m, bool places) {
  py::dict a;
  switch (m.kind) {
    case ActionKind::kPass: a["kind"] = "pass"; break;
    case ActionKind::kTile:
      a["kind"] = "tile";
      a["tile"] = cell_pair(m.cell);
      a["count"] = static_cast<int>(m.count);
      break;
    case ActionKind::kEdge:
      a["kind"] = "edge";
      a["cell"] = cell_pair(m.cell);
      break;
    case ActionKind::kEvacuate: {
      a["kind"] = "evacuate";
      a["number"] = static_cast<int>(m.number);
      py::list to;
      for (Cell c : m.to) to.append(cell_pair(c));
      a["to"] = to;
      break;
    }
  }
  py::dict d;
  d["place"] = places ? py::object(cell_pair(m.place)) : py::none();
  d["action"] = a;
  return d;
}

Move to_move(const MoveTuple& t) {
  const auto& [pq, pr, kind, cq, cr, count, number, to] = t;
  Move m;
  m.place = {static_cast<int16_t>(pq), static_cast<int16_t>(pr)};
  m.kind = static_cast<ActionKind>(kind);
  m.cell = {static_cast<int16_t>(cq), static_cast<int16_t>(cr)};
  m.count = static_cast<uint8_t>(std::clamp(count, 0, 255));
  m.number = static_cast<uint8_t>(std::clamp(number, 0, 255));
  if (to.size() > m.to.capacity())
    throw InvalidInput("move.action.to: " + std::to_string(to.size()) + " cells, more than the " +
                       std::to_string(m.to.capacity()) + " pawns a colour can have");
  for (const auto& [q, r] : to) m.to.push_back({static_cast<int16_t>(q), static_cast<int16_t>(r)});
  return m;
}

void put_report(py::dict& step, const TurnReport& report) {
  step["tile"] = report.tile_n;
  step["covered"] = report.covered_color < 0 ? py::none() : py::object(py::int_(report.covered_color));
  step["returned"] = report.returned;
}

py::dict position_dict(const PositionSpec& spec) {
  py::list edge;
  for (const EdgeSpec& e : spec.edge) {
    py::dict d;
    d["q"] = e.q;
    d["r"] = e.r;
    d["color"] = e.color;
    edge.append(d);
  }
  py::list rest;
  for (const NewTile& t : spec.deal_rest) {
    py::dict d;
    d["n"] = t.n;
    d["spaces"] = t.spaces;
    rest.append(d);
  }
  py::dict d;
  d["tiles"] = tiles_list(spec.tiles);
  d["edge"] = edge;
  d["supply"] = std::vector<int>(spec.supply.begin(), spec.supply.end());
  d["next"] = spec.next;
  d["deal_rest"] = rest;
  return d;
}

}  // namespace onrun_io

namespace {

using namespace onrun_io;
// The order hidden: the table as above, then pool, turns_left (-1: the
// default) and the drawn tile, if any.
#define HIDDEN_ARGS                                                                                    \
  const std::vector<TileTuple>&tiles, const std::vector<EdgeTuple>&edge, const std::vector<int>&supply, \
      int next, const std::vector<NewTuple>&pool, int turns_left, const std::optional<NewTuple>&drawn
#define HIDDEN_NAMES                                                                                   \
  py::arg("tiles"), py::arg("edge"), py::arg("supply"), py::arg("next"), py::arg("pool"), py::arg("turns_left"), \
      py::arg("drawn")

std::unique_ptr<HiddenGame> make_hidden(HIDDEN_ARGS) {
  HiddenSpec h;
  for (const auto& [n, spaces] : pool) h.pool.push_back({n, spaces});
  h.turns_left = turns_left;
  if (drawn) {
    h.has_drawn = true;
    h.drawn = {std::get<0>(*drawn), std::get<1>(*drawn)};
  }
  return std::make_unique<HiddenGame>(make_spec(tiles, edge, supply, next, {}), h);
}

#define POSITION_ARGS                                                                                  \
  const std::vector<TileTuple>&tiles, const std::vector<EdgeTuple>&edge, const std::vector<int>&supply, \
      int next, const std::vector<NewTuple>&rest
#define POSITION_NAMES py::arg("tiles"), py::arg("edge"), py::arg("supply"), py::arg("next"), py::arg("deal_rest")

py::list moves_list(const std::vector<Move>& moves) {
  py::list out;
  for (const Move& m : moves) out.append(move_dict(m));
  return out;
}

const char* status_name(const Game& game, const State& s) {
  if (!game.final(s)) return "ongoing";
  return game.won(s) ? "win" : "loss";
}

// A check's answer: the status, the colour to play, the flashpoints and
// edge areas, and the distinct legal moves.
py::dict check_dict(const Game& game, const State& s, const std::vector<Child>& kids, const std::vector<Cell>& flash,
                    const std::vector<Cell>& areas) {
  py::dict d;
  d["status"] = status_name(game, s);
  d["turns_left"] = game.turns_left(s);
  d["color"] = static_cast<int>(s.next);
  d["score"] = game.final(s) ? py::object(py::int_(game.score(s))) : py::none();
  d["upper_score"] = game.upper_score(s);
  py::list fl, ar, moves;
  for (Cell c : flash) fl.append(cell_pair(c));
  for (Cell c : areas) ar.append(cell_pair(c));
  d["flashpoints"] = fl;
  d["edge_areas"] = ar;
  for (const Child& k : kids) {
    py::dict e;
    e["move"] = move_dict(k.move);
    e["equivalent"] = moves_list(k.equivalent);
    moves.append(e);
  }
  d["moves"] = moves;
  return d;
}

// Score values out of the search's objective (2 * score + won).
py::object score_of(int objective) { return objective < 0 ? py::none() : py::object(py::int_(objective / 2)); }

void put_value(py::dict& d, int lower, int upper, bool exact) {
  d["best_score"] = exact ? score_of(lower) : py::none();
  d["won"] = exact ? py::object(py::bool_(lower % 2 == 1)) : (lower >= 1 ? py::object(py::bool_(true)) : py::none());
  d["score_bounds"] = py::make_tuple(lower < 0 ? 0 : lower / 2, upper / 2);
  d["exact"] = exact;
}

py::str fraction(const ExactValue& v) { return py::str(fraction_text(v)); }
py::object fraction_or_none(bool exact, const ExactValue& v) { return exact ? py::object(fraction(v)) : py::none(); }

py::dict tile_dict(const NewTile& t) {
  py::dict d;
  d["n"] = t.n;
  d["spaces"] = t.spaces;
  return d;
}

py::dict interval_dict(double mean, double low, double high, const char* quantity) {
  py::dict d;
  d["estimate"] = mean;
  d["interval"] = py::make_tuple(low, high);
  d["quantity"] = quantity;
  return d;
}

py::dict sampled_dict(const SampledValue& v) {
  py::dict e;
  e["seed"] = v.seed;
  e["samples"] = v.samples;
  e["samples_asked"] = v.samples_asked;
  e["lookahead"] = v.lookahead;
  e["policy"] = interval_dict(
      v.policy_mean, v.policy_low, v.policy_high,
      v.lookahead ? "lower bound: the mean score of the lookahead policy, which sees only the drawn tile and which "
                    "tiles are left"
                  : "lower bound: the mean score of a fixed policy that sees only the drawn tile");
  e["clairvoyant"] = interval_dict(v.clairvoyant_mean, v.clairvoyant_low, v.clairvoyant_high,
                                   "upper bound: the clairvoyant mean (known-order best scores)");
  e["clairvoyant_bounded"] = v.clairvoyant_bounded;
  e["clairvoyant_nodes"] = v.clairvoyant_nodes;
  return e;
}

// A hint's move or draw: exact, sampled, or neither (not reached).
void put_hidden_value(py::dict& e, bool exact, const ExactValue& value, const SampledValue& sample) {
  e["expected_score"] = fraction_or_none(exact, value);
  e["sampled"] = !exact && sample.samples > 0 ? py::object(sampled_dict(sample)) : py::none();
}

}  // namespace

void bind_onrun_contest(py::module_& m);  // competitive_binding.cpp

SMOKEJUMPER_GAME(onrun, "On the Run! co-op / solitaire, deal known or hidden") {
  m.attr("MAX_TILES") = kMaxTiles;
  m.attr("HINT_CANDIDATES") = kHintCandidates;
  m.attr("MAX_PAWNS_PER_COLOR") = kMaxPawnsPerColor;
  m.attr("MAX_COORDINATE") = kMaxCoordinate;
  bind_onrun_contest(m);

  m.def(
      "deal",
      [](uint64_t seed, int count) {
        std::vector<std::tuple<int, int>> out;
        for (const NewTile& t : deal(seed, count)) out.emplace_back(t.n, t.spaces);
        return out;
      },
      py::arg("seed"), py::arg("count"), "The first `count` tiles of the 43-tile box shuffled by `seed`.");

  m.def(
      "check",
      [](POSITION_ARGS) {
        std::unique_ptr<Game> game;
        std::vector<Child> kids;
        std::vector<Cell> flash, areas;
        {
          py::gil_scoped_release release;
          game = std::make_unique<Game>(make_spec(tiles, edge, supply, next, rest));
          const State& s = game->initial();
          kids = game->children(s);
          if (!game->final(s)) flash = game->flashpoints(s);
          areas = game->edge_areas(s);
        }
        return check_dict(*game, game->initial(), kids, flash, areas);
      },
      POSITION_NAMES, "Validate a position; its status, flashpoints, edge areas and distinct legal moves.");

  m.def(
      "bounds",
      [](POSITION_ARGS) {
        const Game game(make_spec(tiles, edge, supply, next, rest));
        py::dict d;
        d["upper_objective"] = game.upper_objective(game.initial());
        d["upper_score"] = game.upper_score(game.initial());
        return d;
      },
      POSITION_NAMES, "The search's admissible bounds (for tests: never below the true best).");

  m.def(
      "search_order",
      [](POSITION_ARGS) {
        const Game game(make_spec(tiles, edge, supply, next, rest));
        std::vector<std::pair<Move, int>> order;
        {
          py::gil_scoped_release release;
          order = search_order(game, game.initial());
        }
        py::list out;
        for (const auto& [move, bound] : order) out.append(py::make_tuple(move_dict(move, true), bound));
        return out;
      },
      POSITION_NAMES, "The moves in the order solve's search tries them, with the bound of each (for tests).");

  m.def(
      "solve",
      [](POSITION_ARGS, uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb, Control* control,
         bool use_bound, bool spread, bool beams, bool walks) {
        std::unique_ptr<Game> game;
        SolveResult r;
        {
          py::gil_scoped_release release;
          game = std::make_unique<Game>(make_spec(tiles, edge, supply, next, rest));
          r = solve(*game, game->initial(), make_limits(max_nodes, max_seconds, max_memory_mb), control, use_bound, spread,
                    beams, walks);
        }
        py::dict d;
        d["verdict"] = r.lower >= 1 ? "win" : (r.exact ? "loss" : "unknown");
        put_value(d, r.lower, r.upper, r.exact);
        d["line"] = r.lower >= 0 ? py::object(moves_list(r.line)) : py::none();
        d["stats"] = stats_dict(r.stats);
        return d;
      },
      POSITION_NAMES, py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"),
      py::arg("control") = nullptr, py::arg("use_bound") = true, py::arg("spread") = true, py::arg("beams") = true,
      py::arg("walks") = true);

  m.def(
      "hint",
      [](POSITION_ARGS, uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb, Control* control,
         bool beams) {
        std::unique_ptr<Game> game;
        HintResult r;
        {
          py::gil_scoped_release release;
          game = std::make_unique<Game>(make_spec(tiles, edge, supply, next, rest));
          r = hint(*game, game->initial(), make_limits(max_nodes, max_seconds, max_memory_mb), control, beams);
        }
        py::list moves;
        for (const HintMove& h : r.moves) {
          py::dict e;
          e["move"] = move_dict(h.child.move);
          e["equivalent"] = moves_list(h.child.equivalent);
          put_value(e, h.lower, h.upper, h.exact);
          e["line"] = h.lower >= 0 ? py::object(moves_list(h.line)) : py::none();
          moves.append(e);
        }
        py::dict d;
        d["moves"] = moves;
        d["stats"] = stats_dict(r.stats);
        return d;
      },
      POSITION_NAMES, py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"),
      py::arg("control") = nullptr, py::arg("beams") = true);

  m.def(
      "policy",
      [](POSITION_ARGS, uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb, Control* control,
         bool lookahead, uint64_t seed) {
        PolicyGame r;
        {
          py::gil_scoped_release release;
          const Game game(make_spec(tiles, edge, supply, next, rest));
          r = play_policy(game, make_limits(max_nodes, max_seconds, max_memory_mb), control, lookahead, seed);
        }
        py::dict d;
        d["score"] = r.score < 0 ? py::none() : py::object(py::int_(r.score));
        d["line"] = moves_list(r.line);
        d["stats"] = stats_dict(r.stats);
        return d;
      },
      POSITION_NAMES, py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"),
      py::arg("control") = nullptr, py::arg("lookahead") = false, py::arg("seed") = 0,
      "The sampled answers' fixed policy (or the lookahead policy) played on the deal, seeing each tile only "
      "when drawn.");

  m.def(
      "hidden_check",
      [](HIDDEN_ARGS) {
        std::unique_ptr<HiddenGame> game;
        std::vector<Child> kids;
        std::vector<Cell> flash, areas;
        {
          py::gil_scoped_release release;
          game = make_hidden(tiles, edge, supply, next, pool, turns_left, drawn);
          const State& s = game->root().state;
          if (game->root().drawn >= 0) kids = game->engine().children(s);  // else the tile is not known yet
          if (!game->engine().final(s)) flash = game->engine().flashpoints(s);
          areas = game->engine().edge_areas(s);
        }
        py::dict d = check_dict(game->engine(), game->root().state, kids, flash, areas);
        d["pool_size"] = game->pool_size(game->root());
        return d;
      },
      HIDDEN_NAMES, "check with the order hidden: moves are listed only when the next tile is drawn.");

  m.def(
      "hidden_solve",
      [](HIDDEN_ARGS, uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb, Control* control, uint64_t seed,
         int samples, bool sample_only, bool lookahead) {
        HiddenSolveResult r;
        {
          py::gil_scoped_release release;
          const std::unique_ptr<HiddenGame> game = make_hidden(tiles, edge, supply, next, pool, turns_left, drawn);
          r = solve_hidden(*game, make_limits(max_nodes, max_seconds, max_memory_mb), control, seed, samples,
                           sample_only, lookahead);
        }
        py::dict d;
        d["exact"] = r.exact;
        d["expected_score"] = fraction_or_none(r.exact, r.value);
        d["not_exact_because"] = r.exact ? py::none() : py::object(py::str(r.why_not));
        d["sampled"] = r.sampled ? py::object(sampled_dict(r.sample)) : py::none();
        d["stats"] = stats_dict(r.stats);
        return d;
      },
      HIDDEN_NAMES, py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"),
      py::arg("control") = nullptr, py::arg("seed") = 0, py::arg("samples") = kDefaultSamples,
      py::arg("sample_only") = false, py::arg("lookahead") = false);

  m.def(
      "hidden_hint",
      [](HIDDEN_ARGS, uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb, Control* control, uint64_t seed,
         int samples, size_t candidates, bool lookahead) {
        HiddenHintResult r;
        {
          py::gil_scoped_release release;
          const std::unique_ptr<HiddenGame> game = make_hidden(tiles, edge, supply, next, pool, turns_left, drawn);
          r = hint_hidden(*game, make_limits(max_nodes, max_seconds, max_memory_mb), control, seed, samples,
                          candidates, lookahead);
        }
        py::list moves, draws;
        for (const HiddenChoice& h : r.moves) {
          py::dict e;
          e["move"] = move_dict(h.child.move);
          e["equivalent"] = moves_list(h.child.equivalent);
          put_hidden_value(e, h.exact, h.value, h.sample);
          moves.append(e);
        }
        for (const HiddenDraw& h : r.draws) {
          py::dict e;
          e["tile"] = tile_dict(h.tile);
          e["probability"] = fraction({static_cast<Uint128>(h.count), static_cast<Uint128>(r.pool_size)});
          put_hidden_value(e, h.exact, h.value, h.sample);
          draws.append(e);
        }
        py::dict d;
        d["expected_score"] = fraction_or_none(r.exact, r.value);
        d["moves"] = moves;
        d["draws"] = draws;
        d["stats"] = stats_dict(r.stats);
        return d;
      },
      HIDDEN_NAMES, py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"),
      py::arg("control") = nullptr, py::arg("seed") = 0, py::arg("samples") = kDefaultSamples,
      py::arg("candidates") = kHintCandidates, py::arg("lookahead") = false);

  m.def(
      "replay",
      [](POSITION_ARGS, const std::vector<MoveTuple>& line) {
        const Game game(make_spec(tiles, edge, supply, next, rest));
        State s = game.initial();
        py::list steps;
        py::object error = py::none();
        for (size_t k = 0; k < line.size(); ++k) {
          const Move mv = to_move(line[k]);
          std::string why;
          if (!game.legal(s, mv, &why)) {
            error = py::str("turn " + std::to_string(k) + ": " + why);
            break;
          }
          TurnReport report;
          s = game.apply(s, mv, &report);
          Move shown = mv;
          std::sort(shown.to.begin(), shown.to.end());
          py::dict step;
          step["move"] = move_dict(shown);
          put_report(step, report);
          step["status"] = status_name(game, s);
          steps.append(step);
        }
        py::dict d;
        d["status"] = status_name(game, s);
        d["score"] = game.final(s) ? py::object(py::int_(game.score(s))) : py::none();
        d["steps"] = steps;
        d["position"] = position_dict(game.to_spec(s));
        d["error"] = error;
        return d;
      },
      POSITION_NAMES, py::arg("line"), "Play moves through the engine; stops at the first illegal one.");
}

}  // namespace sj::bindings
