// Glue shared by the per-game binding files.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

#include "core/limits.hpp"
#include "search/expectimax.hpp"
#include "search/proof.hpp"

namespace sj::bindings {

namespace py = pybind11;

// Limits arrive as plain numbers already capped by the Python layer.
inline Limits make_limits(uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb) {
  Limits l;
  l.max_nodes = max_nodes;
  l.max_seconds = max_seconds;
  l.max_memory_mb = max_memory_mb;
  return l;
}

inline py::object stop_reason(StopReason r) {
  if (r == StopReason::kNone) return py::none();
  return py::str(stop_reason_name(r));
}

inline void put_table_stats(py::dict& d, const TableStats& t) {
  d["table_hits"] = t.hits;
  d["table_stores"] = t.stores;
  d["table_capacity"] = t.capacity;
  d["table_bytes"] = t.bytes;
}

// Table tiles as the spec writes them; the games' TileSpec types share
// these fields (q, r, n, spaces, pawns per colour).
template <class Tiles>
py::list tiles_list(const Tiles& tiles) {
  py::list out;
  for (const auto& t : tiles) {
    py::dict d;
    d["q"] = t.q;
    d["r"] = t.r;
    d["n"] = t.n;
    d["spaces"] = t.spaces;
    d["pawns"] = t.pawns;
    out.append(d);
  }
  return out;
}

// What every search reports: its size, its time and why it stopped.
inline py::dict counts_dict(uint64_t nodes, double seconds, StopReason stopped_by) {
  py::dict d;
  d["nodes"] = nodes;
  d["seconds"] = seconds;
  d["nodes_per_second"] = seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0;
  d["stopped_by"] = stop_reason(stopped_by);
  return d;
}

inline py::dict stats_dict(const SearchStats& s) {
  py::dict d = counts_dict(s.nodes, s.seconds, s.stopped_by);
  d["pruned"] = s.pruned;
  d["max_depth"] = s.max_depth;
  put_table_stats(d, s.table);
  d["table_used"] = s.table.used;
  return d;
}

inline py::dict stats_dict(const ExpectimaxStats& s) {
  py::dict d = counts_dict(s.nodes, s.seconds, s.stopped_by);
  d["states_stored"] = s.table.used;
  d["cutoffs"] = s.cutoffs;
  d["bound_prunes"] = s.bound_prunes;
  d["dominance_prunes"] = s.dominance_prunes;
  d["max_depth"] = s.max_depth;
  put_table_stats(d, s.table);
  return d;
}

// A game's binding registers itself with SMOKEJUMPER_GAME; module.cpp makes
// one submodule per registration, so that no shared file names a game.
struct GameBinding {
  const char* name;
  const char* doc;
  void (*init)(py::module_& m);
};

// Filled by the registrars' static initialisers, in whatever order the linker
// put them: a function-local static is built by the first of them, so no
// initialisation order can find it missing.
inline std::vector<GameBinding>& game_bindings() {
  static std::vector<GameBinding> all;
  return all;
}

struct GameRegistrar {
  GameRegistrar(const char* name, const char* doc, void (*init)(py::module_& m)) {
    game_bindings().push_back({name, doc, init});
  }
};

// SMOKEJUMPER_GAME(name, "What the game is") { m.def(...); } defines the init
// function of the submodule _core.name, with the submodule as `m`. Nothing
// references the registrar, so its file must be linked into _core itself
// (smokejumper_game in CMakeLists.txt): a static library would drop it.
#define SMOKEJUMPER_GAME(name, doc)                                                    \
  static void init_##name(::pybind11::module_& m);                                     \
  static const ::sj::bindings::GameRegistrar registrar_##name{#name, doc, &init_##name}; \
  static void init_##name(::pybind11::module_& m)

}  // namespace sj::bindings
