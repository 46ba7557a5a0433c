// The extension module smokejumper._core: what all games share, and one
// submodule per game that registered itself (SMOKEJUMPER_GAME).
#include <pybind11/gil_safe_call_once.h>

#include <algorithm>
#include <string_view>

#include "bindings/common.hpp"
#include "core/error.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "smokejumper's C++ engines and searches";
  m.attr("__version__") = SMOKEJUMPER_VERSION;

  // Stored the way pybind11 asks: a plain static would drop its reference
  // after the interpreter has gone.
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<py::object> invalid;
  invalid.call_once_and_store_result(
      [&] { return py::exception<sj::InvalidInput>(m, "InvalidPositionError", PyExc_ValueError); });
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const sj::InvalidInput& e) {
      py::set_error(invalid.get_stored(), e.what());
    }
  });

  py::class_<sj::Control>(m, "Control",
                          "Shared with a running search: stop it, or read its node count and its answer's "
                          "interval so far.")
      .def(py::init<>())
      .def("stop", &sj::Control::request_stop, "Ask the search to stop at its next poll.")
      .def_property_readonly("stopped", &sj::Control::stop_requested)
      .def_property_readonly("nodes", &sj::Control::nodes)
      .def_property_readonly("interval", &sj::Control::interval,
                             "The interval the search has narrowed its answer to so far (proved bounds, "
                             "or a sampled estimate's 95% interval); None before it publishes one, and "
                             "always for a search that has none (a proof search's verdict).");

  // By name, so that the order never depends on the link order.
  auto& games = sj::bindings::game_bindings();
  std::sort(games.begin(), games.end(),
            [](const auto& a, const auto& b) { return std::string_view(a.name) < std::string_view(b.name); });
  py::list names;
  for (const auto& game : games) {
    auto sub = m.def_submodule(game.name, game.doc);
    game.init(sub);
    names.append(game.name);
  }
  m.attr("games") = py::tuple(names);
}
