// On the Run! competitive bindings (2-4 players): check and replay. The
// Python layer has checked shapes and ranges and filled in each move's
// colour; answers are dicts in the shape docs/rules/onrun.md gives.
#include <memory>
#include <tuple>

#include "bindings/common.hpp"
#include "core/error.hpp"
#include "games/onrun/convert.hpp"

namespace sj::bindings {
namespace {

using namespace onrun_io;
// place q, r; kind (0 pass, 1 tile, 2 edge, 3 evacuate); cell q, r; count; number; to; colour
using ContestMoveTuple = std::tuple<int, int, int, int, int, int, int, std::vector<std::pair<int, int>>, int>;

ContestSpec make_contest(const std::vector<TileTuple>& tiles, const std::vector<EdgeTuple>& edge,
                         const std::vector<int>& supply, int next, const std::vector<NewTuple>& rest, int players,
                         int passes, const std::vector<int>& neutral) {
  ContestSpec spec;
  spec.board = make_spec(tiles, edge, supply, next, rest);
  spec.players = players;
  spec.passes = passes;
  if (neutral.size() != 3) throw InvalidInput("position.neutral: not three counts");
  for (int k = 0; k < 3; ++k) spec.neutral[k] = neutral[k];
  return spec;
}

#define CONTEST_ARGS                                                                                   \
  const std::vector<TileTuple>&tiles, const std::vector<EdgeTuple>&edge, const std::vector<int>&supply, \
      int next, const std::vector<NewTuple>&rest, int players, int passes, const std::vector<int>&neutral
#define CONTEST_NAMES                                                                                  \
  py::arg("tiles"), py::arg("edge"), py::arg("supply"), py::arg("next"), py::arg("deal_rest"), py::arg("players"), \
      py::arg("passes"), py::arg("neutral")

py::dict contest_move_dict(const ContestMove& cm, bool places) {
  py::dict d = move_dict(cm.move, places);
  d["color"] = static_cast<int>(cm.color);
  return d;
}

ContestMove to_contest_move(const ContestMoveTuple& t) {
  const auto& [pq, pr, kind, cq, cr, count, number, to, color] = t;
  ContestMove cm;
  cm.move = to_move({pq, pr, kind, cq, cr, count, number, to});
  cm.color = static_cast<uint8_t>(std::clamp(color, 0, 255));
  return cm;
}

py::dict contest_position_dict(const ContestSpec& spec) {
  py::dict d = position_dict(spec.board);
  d["players"] = spec.players;
  d["passes"] = spec.passes;
  if (spec.players == 3) d["neutral"] = std::vector<int>(spec.neutral.begin(), spec.neutral.end());
  return d;
}

const char* contest_status(const Contest& game, const ContestState& s) { return game.final(s) ? "over" : "ongoing"; }

py::object results_list(const Contest& game, const ContestState& s) {
  if (!game.final(s)) return py::none();
  py::list out;
  int seat = 0;
  for (const SeatResult& r : game.results(s)) {
    py::dict d;
    d["seat"] = seat++;
    d["score"] = r.score;
    d["damage"] = r.damage;
    d["winner"] = r.winner;
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_onrun_contest(py::module_& m) {
  m.def(
      "contest_check",
      [](CONTEST_ARGS) {
        std::unique_ptr<Contest> game;
        std::vector<ContestChild> kids;
        std::vector<Cell> flash, areas;
        {
          py::gil_scoped_release release;
          game = std::make_unique<Contest>(make_contest(tiles, edge, supply, next, rest, players, passes, neutral));
          const ContestState& s = game->initial();
          kids = game->children(s);
          flash = game->flashpoints(s);
          areas = game->edge_areas(s);
        }
        const ContestState& s = game->initial();
        const bool places = game->tiles_left(s) > 0;
        py::dict d;
        d["status"] = contest_status(*game, s);
        d["turns_left"] = game->tiles_left(s);
        d["seat"] = static_cast<int>(s.seat);
        d["colors"] = game->colors_of(s.seat);
        d["passes"] = static_cast<int>(s.passes);
        py::list fl, ar, moves;
        for (Cell c : flash) fl.append(cell_pair(c));
        for (Cell c : areas) ar.append(cell_pair(c));
        for (const ContestChild& k : kids) {
          py::dict e;
          e["move"] = contest_move_dict(k.move, places);
          py::list eq;
          for (const ContestMove& x : k.equivalent) eq.append(contest_move_dict(x, places));
          e["equivalent"] = eq;
          moves.append(e);
        }
        d["flashpoints"] = fl;
        d["edge_areas"] = ar;
        d["moves"] = moves;
        d["results"] = results_list(*game, s);
        return d;
      },
      CONTEST_NAMES, "A competitive position: its status, seat to move, distinct legal moves and, once over, results.");

  m.def(
      "contest_replay",
      [](CONTEST_ARGS, const std::vector<ContestMoveTuple>& line) {
        const Contest game(make_contest(tiles, edge, supply, next, rest, players, passes, neutral));
        ContestState s = game.initial();
        py::list steps;
        py::object error = py::none();
        for (size_t k = 0; k < line.size(); ++k) {
          const ContestMove mv = to_contest_move(line[k]);
          std::string why;
          if (!game.legal(s, mv, &why)) {
            error = py::str("turn " + std::to_string(k) + ": " + why);
            break;
          }
          const bool places = game.tiles_left(s) > 0;
          TurnReport report;
          const int seat = s.seat;
          s = game.apply(s, mv, &report);
          ContestMove shown = mv;
          std::sort(shown.move.to.begin(), shown.move.to.end());
          py::dict step;
          step["seat"] = seat;
          step["move"] = contest_move_dict(shown, places);
          put_report(step, report);
          step["status"] = contest_status(game, s);
          steps.append(step);
        }
        py::dict d;
        d["status"] = contest_status(game, s);
        d["results"] = results_list(game, s);
        d["steps"] = steps;
        d["position"] = contest_position_dict(game.to_spec(s));
        d["error"] = error;
        return d;
      },
      CONTEST_NAMES, py::arg("line"), "Play competitive moves through the engine; stops at the first illegal one.");
}

}  // namespace sj::bindings
