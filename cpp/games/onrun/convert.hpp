// On the Run!'s conversions between the engine and Python, shared by the
// co-op and the competitive bindings: positions in as plain tuples (the
// Python layer has checked shapes and ranges), moves and positions out as
// dicts in the spec's JSON shape.
#pragma once
#include <tuple>
#include <utility>
#include <vector>

#include "bindings/common.hpp"
#include "games/onrun/onrun.hpp"

namespace sj::bindings::onrun_io {

using namespace sj::onrun;
using TileTuple = std::tuple<int, int, int, int, std::vector<int>>;  // q, r, n, spaces, pawns
using EdgeTuple = std::tuple<int, int, int>;                         // q, r, color
using NewTuple = std::tuple<int, int>;                               // n, spaces
// place q, r; kind (0 pass, 1 tile, 2 edge, 3 evacuate); cell q, r; count; number; to
using MoveTuple = std::tuple<int, int, int, int, int, int, int, std::vector<std::pair<int, int>>>;

PositionSpec make_spec(const std::vector<TileTuple>& tiles, const std::vector<EdgeTuple>& edge,
                       const std::vector<int>& supply, int next, const std::vector<NewTuple>& rest);
py::tuple cell_pair(Cell c);
// `places`: whether the move places a tile (a competitive turn after the
// last tile does not: its place is null).
py::dict move_dict(const Move& m, bool places = true);
Move to_move(const MoveTuple& t);
py::dict position_dict(const PositionSpec& spec);
// A replay step's account of what its turn did besides the move.
void put_report(py::dict& step, const TurnReport& report);

}  // namespace sj::bindings::onrun_io
