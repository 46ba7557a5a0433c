// Fire Tower bindings. The engine reads and writes the spec's JSON itself
// (io.hpp), so positions, records, moves and events cross as JSON text; a
// Session keeps a replayed game in C++ so that asking for its moves, its
// board or the next step never copies the state through JSON.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "bindings/common.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "games/firetower/io.hpp"
#include "games/firetower/search.hpp"

namespace sj::bindings {
namespace {

using namespace sj::firetower;

struct Data {
  std::shared_ptr<const Rules> rules;
};

Data make_data(const std::string& text) {
  py::gil_scoped_release release;
  return Data{std::make_shared<const Rules>(read_rules(parse_json(text)))};
}

// The rules a record or position plays by: its own deck, when it gives one.
std::shared_ptr<const Rules> rules_for(const Data& data, const Json& doc) {
  const Json* start = doc.is_object() && doc.find("start") ? doc.find("start") : &doc;
  const Json* options = start->is_object() ? start->find("options") : nullptr;
  const Json* deck = options && options->is_object() ? options->find("deck") : nullptr;
  if (!deck || deck->is_string()) return data.rules;
  const std::string where = start == &doc ? "options.deck" : "start.options.deck";
  return std::make_shared<const Rules>(with_deck(*data.rules, Reader(*deck, where)));
}

class Session {
 public:
  Session(std::shared_ptr<const Rules> rules, State state) : rules_(std::move(rules)), engine_(*rules_), state_(state) {}
  Session(const Session& o) : rules_(o.rules_), engine_(*rules_), state_(o.state_) {}

  const Engine& engine() const { return engine_; }
  const Rules& rules() const { return *rules_; }
  const std::shared_ptr<const Rules>& rules_ptr() const { return rules_; }
  State& state() { return state_; }
  const State& state() const { return state_; }

  // The first `limit` moves in the spec's canonical order (section 12),
  // the number of all of them, and the hawk-card families too large to
  // list: each its card, its number of moves, the move without its squares,
  // where own hawks may end, the enemy hawks that may be taken, and the
  // own / placed / max_take counts that size a final set, so that a
  // frontend can build one of its moves (spec 6.10).
  py::tuple moves(size_t limit) const {
    std::vector<std::string> texts;
    std::vector<HawkFamily> too_many;
    uint64_t count = 0;
    {
      py::gil_scoped_release release;
      std::vector<Move> moves;
      std::vector<HawkFamily> families;
      engine_.legal_moves(state_, moves, &families);
      count = moves.size();
      for (const HawkFamily& f : families) {
        count += f.count;
        if (f.count <= limit) {
          for (uint64_t i = 0; i < f.count; ++i) moves.push_back(f.unrank(i));
        } else {
          too_many.push_back(f);
        }
      }
      texts.reserve(moves.size());
      for (const Move& m : moves) texts.push_back(move_json(m, *rules_));
      std::sort(texts.begin(), texts.end());
      texts.erase(std::unique(texts.begin(), texts.end()), texts.end());
      if (texts.size() > limit) texts.resize(limit);
    }
    py::list unlisted;
    for (const HawkFamily& f : too_many) {
      py::list cells, enemies;
      auto square = [](uint8_t s) { return py::make_tuple(row_of(s), col_of(s)); };
      for (int i = 0; i < f.ncells; ++i) cells.append(square(f.cells[i]));
      // The family keeps every enemy hawk; they may be taken only while the supply is short.
      for (int i = 0; i < (f.max_take ? f.nenemies : 0); ++i) enemies.append(square(f.enemies[i]));
      unlisted.append(py::make_tuple(rules_->cards[f.base.card].id, f.count, move_json(f.base, *rules_), cells,
                                     enemies, f.own, f.placed, f.max_take));
    }
    return py::make_tuple(count, texts, unlisted);
  }

  std::vector<std::pair<std::string, uint32_t>> outcomes() const {
    std::vector<firetower::Outcome> out;
    engine_.outcomes(state_, out);
    std::vector<std::pair<std::string, uint32_t>> events;
    for (const firetower::Outcome& o : out) events.emplace_back(chance_json(state_, o.value, *rules_), o.weight);
    std::sort(events.begin(), events.end());
    return events;
  }

  // A move or a chance event, checked; the canonical JSON of what was applied.
  std::string apply(const std::string& text, const std::string& where) {
    const Json j = parse_json(text);
    const Reader r(j, where);
    if (!state_.over()) skip_single_outcomes(engine_, state_, j);
    if (state_.over()) r.fail(std::string("the game is over (") + status_name(state_.status) + ")");
    if (is_chance_event(j)) {
      if (!state_.at_chance()) r.fail(std::string("a chance event where the player decides (") + need_name(state_.need) + ")");
      const uint8_t v = read_chance(r, state_, *rules_);
      std::vector<firetower::Outcome> out;
      engine_.outcomes(state_, out);
      if (std::none_of(out.begin(), out.end(), [&](const firetower::Outcome& o) { return o.value == v; }))
        r.fail(chance_json(state_, v, *rules_) + " cannot happen here");
      const std::string applied = chance_json(state_, v, *rules_);
      engine_.apply_chance(state_, v);
      return applied;
    }
    if (!state_.at_decision()) r.fail(std::string("a move where a chance event (") + need_name(state_.need) + ") comes first");
    const Move m = read_move(r, *rules_);
    if (!engine_.is_legal(state_, m)) r.fail(move_json(m, *rules_) + " is not a legal " + need_name(state_.need) + " move");
    engine_.apply(state_, m);
    return move_json(m, *rules_);
  }

  std::vector<std::string> sample(uint64_t seed) {
    std::vector<std::string> events;
    Rng rng(seed);
    sample_to_decision(engine_, state_, rng, &events);
    return events;
  }

  py::object decision() const { return state_.at_decision() ? py::object(py::str(need_name(state_.need))) : py::none(); }
  py::object chance() const { return state_.at_chance() ? py::object(py::str(need_name(state_.need))) : py::none(); }
  py::object position() const {
    const auto p = write_position(state_, *rules_);
    return p ? py::object(py::str(*p)) : py::none();
  }
  std::string view() const { return write_view(state_, *rules_); }

  // One byte a square, row by row: 0 empty, 1 gem, 2 Eternal Flame,
  // 3 firebreak, 4 hawk, 5 hawk activated with its gem.
  py::bytes board() const {
    std::string out(kSquares, '\0');
    const Regions& reg = regions();
    for (int sq = 0; sq < kSquares; ++sq)
      out[static_cast<size_t>(sq)] = static_cast<char>(state_.pending.test(sq) ? 5 : reg.flame.test(sq) ? 2
                                                       : state_.gems.test(sq) ? 1 : state_.breaks.test(sq) ? 3
                                                       : state_.hawks.test(sq) ? 4 : 0);
    return py::bytes(out);
  }

 private:
  std::shared_ptr<const Rules> rules_;
  Engine engine_;
  State state_;
};

// A record or a position, replayed: the session after the last good
// event, the index of the first bad one (-1: none) and why.
py::tuple replay_text(const Data& data, const std::string& text) {
  std::unique_ptr<Session> session;
  long long bad = -1;
  std::string reason;
  size_t events = 0;
  {
    py::gil_scoped_release release;
    const Json doc = parse_json(text);
    const auto rules = rules_for(data, doc);
    const Engine engine(*rules);
    const bool record = doc.is_object() && doc.find("start");
    if (record) {
      Replay r = replay(engine, Reader(doc, ""), false);
      bad = r.bad_index;
      reason = r.reason;
      events = r.events;
      session = std::make_unique<Session>(rules, r.state);
    } else {
      session = std::make_unique<Session>(rules, load_state(engine, Reader(doc, "")));
    }
  }
  return py::make_tuple(std::move(session), bad, reason, events);
}

py::dict search_stats(const HintResult& r) {
  py::dict d = counts_dict(r.stats.iterations, r.stats.seconds, r.stats.stopped_by);
  d["iterations"] = r.stats.iterations;
  d["tree_nodes"] = r.stats.tree_nodes;
  d["arena_full"] = r.stats.arena_full;
  d["candidates"] = r.candidates;
  d["threads"] = r.threads;
  return d;
}

}  // namespace

SMOKEJUMPER_GAME(firetower, "Fire Tower: Rising Flames, solo Levels 1-7 (rules engine, sampling search)") {
  m.attr("MAX_LEVEL") = 7;
  m.attr("HINT_CANDIDATES") = HintOptions{}.root_candidates;
  py::class_<Data>(m, "Data", "The cards, Inferno, die, hawks and levels (spec sections 2-3), from their JSON.")
      .def(py::init(&make_data), py::arg("text"));

  py::class_<Session>(m, "Session", "A game replayed from a record or a position, stopped at its next decision or chance.")
      .def_property_readonly("status", [](const Session& s) { return std::string(status_name(s.state().status)); })
      .def_property_readonly("score", [](const Session& s) -> py::object {
        return s.state().status == Status::kWin ? py::object(py::int_(s.state().score)) : py::none();
      })
      .def_property_readonly("decision", &Session::decision)
      .def_property_readonly("chance", &Session::chance)
      .def_property_readonly("turn", [](const Session& s) { return s.state().turn; })
      .def_property_readonly("round", [](const Session& s) { return s.state().round; })
      .def("moves", &Session::moves, py::arg("limit"))
      .def("outcomes", &Session::outcomes)
      .def("apply", &Session::apply, py::arg("event"), py::arg("where") = "move")
      .def("sample", &Session::sample, py::arg("seed"))
      .def("position", &Session::position)
      .def("view", &Session::view)
      .def("board", &Session::board)
      .def("copy", [](const Session& s) { return Session(s); });

  m.def("replay", &replay_text, py::arg("data"), py::arg("text"));
  m.def("new_game", [](const Data& data, int level, uint64_t seed, bool order_known, int turn_limit) {
        if (level < 1 || level > 7) throw InvalidInput("level: " + std::to_string(level) + " must be 1..7");
        if (turn_limit < 1 || turn_limit > 10000) throw InvalidInput("turn_limit: must be 1..10000");
        py::gil_scoped_release release;
        const State s = new_game(*data.rules, level, seed, order_known, turn_limit);
        return *write_position(s, *data.rules);
      },
      py::arg("data"), py::arg("level"), py::arg("seed"), py::arg("order_known") = false, py::arg("turn_limit") = 100);

  m.def("hint", [](const Session& session, uint64_t max_nodes, double max_seconds, uint64_t max_memory_mb,
                   Control* control, uint64_t seed, bool score, uint32_t threads, uint32_t candidates, size_t listed) {
        HintResult r;
        {
          py::gil_scoped_release release;
          HintOptions o;
          o.seed = seed;
          o.score = score;
          o.threads = threads;
          o.root_candidates = candidates == 0 ? std::numeric_limits<uint32_t>::max() : candidates;  // 0: every move
          r = hint(session.engine(), session.state(), make_limits(max_nodes, max_seconds, max_memory_mb), o, control);
        }
        py::dict d;
        py::list moves;
        for (size_t i = 0; i < r.moves.size() && i < listed; ++i) {
          const HintMove& h = r.moves[i];
          py::dict x;
          x["move"] = move_json(h.move, session.rules());
          x["value"] = h.value.mean;
          x["ci95"] = py::make_tuple(h.value.lo, h.value.hi);
          x["n"] = h.value.n;
          x["search_value"] = h.search_value;
          py::list same;
          for (const Move& e : h.equivalent) same.append(move_json(e, session.rules()));
          x["equivalent"] = same;
          moves.append(x);
        }
        d["moves"] = moves;
        d["moves_total"] = r.moves_total;
        d["value"] = r.root.mean;
        d["ci95"] = py::make_tuple(r.root.lo, r.root.hi);
        d["n"] = r.root.n;
        d["stats"] = search_stats(r);
        return d;
      },
      py::arg("session"), py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory_mb"), py::arg("control"),
      py::arg("seed"), py::arg("score"), py::arg("threads"), py::arg("candidates"), py::arg("listed"));

  // How the random baseline counts the action's moves without listing the
  // large families; equal to moves()'s count (a test checks it).
  m.def("action_count", [](const Session& session) {
        if (session.state().need != Need::kAction) throw InvalidInput("action_count: the game is not at its action");
        return session.engine().action_count(session.state());
      },
      py::arg("session"));

  // Each hand card's plays as the rollouts draw them (by count and index)
  // and as card_plays lists them, by card id, hawk cards and Firestorms
  // apart: the two must be the same list (a test checks it).
  m.def("card_play_draws", [](const Session& session) {
        const State& s = session.state();
        if (s.need != Need::kAction) throw InvalidInput("card_play_draws: the game is not at its action");
        const Engine& engine = session.engine();
        py::dict out;
        std::vector<Move> listed;
        for (size_t k = 0; k < session.rules().cards.size(); ++k) {
          const Effect e = session.rules().cards[k].effect;
          if (!s.hand[k] || e == Effect::kHawks || e == Effect::kFirestorm) continue;
          const uint8_t card = static_cast<uint8_t>(k);
          py::list drawn, plays;
          for (uint64_t i = 0, n = engine.card_play_count(s, card); i < n; ++i)
            drawn.append(move_json(engine.card_play_at(s, card, i), session.rules()));
          engine.card_plays(s, card, listed, nullptr);
          for (const Move& play : listed) plays.append(move_json(play, session.rules()));
          out[py::str(session.rules().cards[k].id)] = py::make_tuple(drawn, plays);
        }
        return out;
      },
      py::arg("session"));

  m.def("baseline_move", [](const Session& session, const std::string& policy, uint64_t seed) {
        const Policy p = policy_named(policy);
        if (p == Policy::kMcts) throw InvalidInput("policy: a baseline is random or greedy; mcts is the hint");
        if (!session.state().at_decision()) throw InvalidInput("baseline_move: the game waits for no decision");
        MoveList list;
        Rng rng(seed);
        const Move chosen = p == Policy::kRandom ? random_move(session.engine(), session.state(), rng, list)
                                                 : greedy_move(session.engine(), session.state(), list);
        return move_json(chosen, session.rules());
      },
      py::arg("session"), py::arg("policy"), py::arg("seed") = 0);

  m.def("fire_distances", [](const Session& session) {
        const std::array<int, 4> d = fire_distances(session.state());
        py::dict out;
        for (size_t t = 0; t < d.size(); ++t) out[kTowerName[t]] = d[t];
        return out;
      },
      py::arg("session"));

  // For the tests: how many moves were compared, and those that disagree.
  m.def("search_h_both_ways", [](const Session& session) {
        if (!session.state().at_decision()) throw InvalidInput("search_h_both_ways: the game waits for no decision");
        const std::vector<SearchHCheck> checks = search_h_both_ways(session.engine(), session.state());
        py::list disagree;
        for (const SearchHCheck& c : checks)
          if (c.incremental != c.flooded)
            disagree.append(py::make_tuple(move_json(c.move, session.rules()), c.incremental, c.flooded));
        return py::make_tuple(checks.size(), disagree);
      },
      py::arg("session"));

  m.def("play", [](const Data& data, int level, uint64_t seed, const std::string& policy, uint64_t max_nodes,
                   double max_seconds, uint64_t max_memory_mb, Control* control, int turn_limit, uint32_t threads) {
        if (level < 1 || level > 7) throw InvalidInput("level: " + std::to_string(level) + " must be 1..7");
        const Policy p = policy_named(policy);
        PlayResult r;
        {
          py::gil_scoped_release release;
          r = play_game(*data.rules, level, seed, p, make_limits(max_nodes, max_seconds, max_memory_mb), turn_limit,
                        threads, control, true);
        }
        py::dict d;
        d["start"] = r.start;
        d["events"] = r.events;
        d["status"] = status_name(r.status);
        d["score"] = r.status == Status::kWin ? py::object(py::int_(r.score)) : py::none();
        d["turns"] = r.turns;
        d["decisions"] = r.decisions;
        d["nodes"] = r.nodes;
        d["seconds"] = r.seconds;
        d["stopped"] = r.stopped;
        return d;
      },
      py::arg("data"), py::arg("level"), py::arg("seed"), py::arg("policy"), py::arg("max_nodes"),
      py::arg("max_seconds"), py::arg("max_memory_mb"), py::arg("control"), py::arg("turn_limit"),
      py::arg("threads"));

  m.def("playouts", [](const Data& data, int level, uint64_t seed, uint64_t games, const std::string& policy) {
        if (level < 1 || level > 7) throw InvalidInput("level: " + std::to_string(level) + " must be 1..7");
        const Policy p = policy_named(policy);
        PlayoutStats r;
        {
          py::gil_scoped_release release;
          r = playouts(*data.rules, level, seed, games, p);
        }
        py::dict d;
        d["games"] = r.games;
        d["wins"] = r.wins;
        d["losses"] = r.losses;
        d["timeouts"] = r.timeouts;
        d["score_sum"] = r.score_sum;
        d["decisions"] = r.decisions;
        d["seconds"] = r.seconds;
        return d;
      },
      py::arg("data"), py::arg("level"), py::arg("seed"), py::arg("games"), py::arg("policy"));
}

}  // namespace sj::bindings
