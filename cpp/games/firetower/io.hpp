// The spec's formats (section 11): the rules data, positions, moves,
// chance events and records, read with errors that name the field, and
// written canonically (sorted keys, no spaces).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "games/firetower/game.hpp"
#include "games/firetower/json.hpp"

namespace sj::firetower {

// Sections 2-3: cards, Inferno, die, hawks and levels.
Rules read_rules(const Json& data);
// The rules of a position whose options give its own deck ({id: count}).
Rules with_deck(const Rules& rules, const Reader& deck);

// A position (section 11.2), ready for Engine::advance. Throws
// InvalidInput naming the field at fault.
State read_position(const Reader& r, const Rules& rules);
// The position at a top-level point (a phase of section 11.2); nullopt
// inside a step, where the spec has no position. `view` writes it anyway,
// with the sub-decision as its phase and pending hawks as 'X'.
std::optional<std::string> write_position(const State& s, const Rules& rules);
std::string write_view(const State& s, const Rules& rules);
const char* status_name(Status st);

// Moves (section 11.3): their shape is checked here, their legality by the engine.
Move read_move(const Reader& r, const Rules& rules);
// A chance event at the state's chance point; false when it is not one.
bool is_chance_event(const Json& j);
uint8_t read_chance(const Reader& r, const State& s, const Rules& rules);
std::string chance_json(const State& s, uint8_t value, const Rules& rules);
// Plays the single-outcome chance points a record may leave out before `next`.
void skip_single_outcomes(const Engine& engine, State& s, const Json& next);

// A record replayed (section 11.3): the state after the last good event,
// and the first bad one.
struct Replay {
  State state;
  std::vector<State> after;     // the state after each event, when asked for
  long long bad_index = -1;     // -1: every event replayed
  std::string reason;
  size_t events = 0;
};
Replay replay(const Engine& engine, const Reader& record, bool keep_states);
// The record's start (a record, or a bare position).
State load_state(const Engine& engine, const Reader& record_or_position);

}  // namespace sj::firetower
