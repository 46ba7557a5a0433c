#include "games/firetower/io.hpp"

#include <algorithm>
#include <map>

#include "core/error.hpp"

namespace sj::firetower {

namespace {

constexpr int kMaxCount = 60;     // copies of one card in a deck
constexpr int kMaxDeck = 240;     // cards in a deck (hand counts are bytes)

const std::map<std::string, Effect>& effects() {
  static const std::map<std::string, Effect> m = {
      {"flare_up", Effect::kFlareUp}, {"burning_snag", Effect::kBurningSnag}, {"crown_fire", Effect::kCrownFire},
      {"explosion", Effect::kExplosion}, {"ember", Effect::kEmber}, {"creeping_fires", Effect::kCreepingFires},
      {"rolling_firebrand", Effect::kRollingFirebrand}, {"de_reforest", Effect::kDeReforest},
      {"dozer_line", Effect::kDozerLine}, {"scratch_line", Effect::kScratchLine}, {"backburn", Effect::kBackburn},
      {"smokejumper", Effect::kSmokejumper}, {"air_drop", Effect::kAirDrop}, {"fire_engine", Effect::kFireEngine},
      {"helitack", Effect::kHelitack}, {"firestorm", Effect::kFirestorm}};
  return m;
}

int dir_index(const std::string& name) {
  for (int d = 0; d < 8; ++d)
    if (name == kDirName[d]) return d;
  return -1;
}

int read_dir(const Reader& r, bool diagonal_ok) {
  const std::string name = r.string();
  const int d = dir_index(name);
  if (d < 0 || (!diagonal_ok && d > kW)) r.fail("\"" + name + "\" is not a direction (N, E, S, W)");
  return d;
}

int read_square(const Reader& r) {
  if (r.size() != 2) r.fail("a square is [row, column]");
  const int row = static_cast<int>(r.item(0).integer(0, 15));
  const int col = static_cast<int>(r.item(1).integer(0, 15));
  return square_at(row, col);
}

// A set of squares, in the engine's order (ascending).
std::vector<int> read_squares(const Reader& r, size_t most) {
  const size_t n = r.size();
  if (n > most) r.fail("at most " + std::to_string(most) + " squares");
  std::vector<int> out;
  for (size_t i = 0; i < n; ++i) out.push_back(read_square(r.item(i)));
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end()) r.fail("a square is listed twice");
  return out;
}

uint8_t read_card(const Reader& r, const Rules& rules) {
  const std::string id = r.string();
  const int k = rules.kind(id);
  if (k < 0) r.fail("\"" + id + "\" is not a card");
  return static_cast<uint8_t>(k);
}

std::string card_list(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  std::string out = "[";
  for (size_t i = 0; i < ids.size(); ++i) {
    out += i ? "," : "";
    out += quote(ids[i]);
  }
  return out + "]";
}

std::string counts_map(const std::array<uint8_t, kMaxKinds>& counts, const Rules& rules) {
  ObjectWriter w;
  for (size_t k = 0; k < rules.cards.size(); ++k)
    if (counts[k]) w.add(rules.cards[k].id, std::to_string(counts[k]));
  return w.str();
}

std::string squares_json(const uint8_t* sq, int n) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) {
    out += i ? "," : "";
    out += square_json(sq[i]);
  }
  return out + "]";
}

// A multiset of cards: a map {id: count}, or a list (ordered, top first, when `order` is given).
void read_cards(const Reader& r, const Rules& rules, std::array<uint8_t, kMaxKinds>& counts,
                std::vector<uint8_t>* order) {
  counts = {};
  if (r.json().is_array()) {
    const size_t n = r.size();
    if (n > kMaxDeck) r.fail("more than " + std::to_string(kMaxDeck) + " cards");
    for (size_t i = 0; i < n; ++i) {
      const uint8_t k = read_card(r.item(i), rules);
      if (++counts[k] > kMaxCount) r.item(i).fail("more than " + std::to_string(kMaxCount) + " copies");
      if (order) order->push_back(k);
    }
    return;
  }
  r.object();
  for (const auto& f : r.json().fields) {
    const Reader c(f.second, r.path() + "." + f.first);
    const int k = rules.kind(f.first);
    if (k < 0) c.fail("\"" + f.first + "\" is not a card");
    counts[static_cast<size_t>(k)] = static_cast<uint8_t>(c.integer(0, kMaxCount));
  }
}

int total(const std::array<uint8_t, kMaxKinds>& counts) {
  int n = 0;
  for (uint8_t c : counts) n += c;
  return n;
}

const char* phase_of(const State& s) {
  // A top-level point: no step open, nothing set aside, the turn's own tasks only.
  if (s.over() || s.steps_open || s.storms_waiting || total(s.aside)) return nullptr;
  const Task top = s.stack[s.depth - 1].task;
  switch (top) {
    case Task::kSetupHawk: return "setup_hawk";
    case Task::kInfernoDraw: return s.stack[s.depth - 1].a ? nullptr : "inferno";  // a penalty's draw is mid-turn
    case Task::kInfernoPlace: return "inferno_place";
    case Task::kWind: return "wind";
    case Task::kAction: return "action";
    case Task::kEnd: return "end";
    default: return nullptr;
  }
}

}  // namespace

int Rules::kind(const std::string& id) const {
  for (size_t k = 0; k < cards.size(); ++k)
    if (cards[k].id == id) return static_cast<int>(k);
  return -1;
}

std::string square_json(int s) {
  std::string out = "[";
  out += std::to_string(row_of(s));
  out += ",";
  out += std::to_string(col_of(s));
  out += "]";
  return out;
}

const char* status_name(Status st) {
  switch (st) {
    case Status::kOngoing: return "ongoing";
    case Status::kWin: return "win";
    case Status::kLoss: return "loss";
    case Status::kTimeout: return "timeout";
  }
  return "ongoing";
}

// ------------------------------------------------------------ rules

Rules read_rules(const Json& data) {
  const Reader d(data, "data");
  Rules rules;
  const Reader cards = d.at("cards");
  if (cards.size() > kMaxKinds) cards.fail("more than " + std::to_string(kMaxKinds) + " kinds of card");
  std::array<int, kMaxKinds> base{};
  for (size_t i = 0; i < cards.size(); ++i) {
    const Reader c = cards.item(i);
    CardKind k;
    k.id = c.at("id").string();
    const std::string type = c.at("type").string();
    static const std::map<std::string, CardType> types = {
        {"fire", CardType::kFire}, {"wind", CardType::kWind}, {"firebreak", CardType::kFirebreak},
        {"water", CardType::kWater}, {"hawk", CardType::kHawk}, {"event", CardType::kEvent}};
    if (!types.count(type)) c.at("type").fail("unknown card type \"" + type + "\"");
    k.type = types.at(type);
    if (k.type == CardType::kWind) {
      k.effect = Effect::kWind;
      const Reader dirs = c.at("dirs");
      for (size_t j = 0; j < dirs.size(); ++j) k.dirs = static_cast<uint8_t>(k.dirs | 1 << read_dir(dirs.item(j), false));
      k.gem = static_cast<uint8_t>(read_dir(c.at("gem"), true));
    } else if (k.type == CardType::kHawk) {
      k.effect = Effect::kHawks;
      k.hawks = static_cast<uint8_t>(c.at("hawks").integer(1, 18));
    } else {
      const auto e = effects().find(k.id);
      if (e == effects().end()) c.at("id").fail("no rule is known for the card \"" + k.id + "\"");
      k.effect = e->second;
    }
    if (rules.kind(k.id) >= 0) c.at("id").fail("\"" + k.id + "\" is given twice");
    base[i] = static_cast<int>(c.at("base").integer(0, kMaxCount) + c.at("exp").integer(0, kMaxCount));
    if (k.effect == Effect::kFirestorm) rules.firestorm = static_cast<int>(i);
    rules.cards.push_back(k);
  }
  if (rules.firestorm < 0) cards.fail("no firestorm card");
  const Reader inferno = d.at("inferno");
  if (inferno.size() == 0 || inferno.size() > kMaxInferno) inferno.fail("1.." + std::to_string(kMaxInferno) + " cards");
  for (size_t i = 0; i < inferno.size(); ++i) {
    const uint8_t k = read_card(inferno.item(i), rules);
    const Effect e = rules.cards[k].effect;
    if (e != Effect::kFlareUp && e != Effect::kBurningSnag && e != Effect::kExplosion && e != Effect::kWind)
      inferno.item(i).fail("the Inferno plays Flare Up, Burning Snag, Explosion or a wind card");
    rules.inferno.push_back(k);
  }
  // The solo deck (section 2): every card, less the removed types but the kept ids, less the Inferno's.
  std::vector<std::string> removed_types, kept;
  for (size_t i = 0; i < d.at("solo_remove_types").size(); ++i) removed_types.push_back(d.at("solo_remove_types").item(i).string());
  for (size_t i = 0; i < d.at("solo_keep").size(); ++i) kept.push_back(d.at("solo_keep").item(i).string());
  static const char* type_names[] = {"fire", "wind", "firebreak", "water", "hawk", "event"};
  for (size_t k = 0; k < rules.cards.size(); ++k) {
    const bool out = std::count(removed_types.begin(), removed_types.end(), type_names[static_cast<int>(rules.cards[k].type)]) &&
                     !std::count(kept.begin(), kept.end(), rules.cards[k].id);
    rules.deck[k] = static_cast<uint8_t>(out ? 0 : base[k]);
  }
  if (d.at("inferno_from_player_deck").boolean())
    for (int k : rules.inferno) {
      if (!rules.deck[static_cast<size_t>(k)]) d.at("inferno").fail("the player deck has no " + rules.cards[static_cast<size_t>(k)].id + " to give the Inferno");
      --rules.deck[static_cast<size_t>(k)];
    }
  const Reader die = d.at("wind_die");
  if (die.size() == 0 || die.size() > 60) die.fail("1..60 faces");
  for (size_t i = 0; i < die.size(); ++i) ++rules.die[static_cast<size_t>(read_dir(die.item(i), false))];
  if (!rules.die[kN] || !rules.die[kW]) die.fail("needs N and W faces (the directions never barred)");
  rules.hawks_total = static_cast<int>(d.at("hawks_total").integer(1, 60));
  const Reader levels = d.at("levels");
  for (int l = 1; l <= 7; ++l) {
    const Reader lv = levels.at(std::to_string(l));
    LevelData& ld = rules.levels[static_cast<size_t>(l)];
    ld.hand = static_cast<int>(lv.at("hand").integer(1, 12));
    ld.player_bucket = lv.at("player_bucket").boolean();
    for (const char* key : {"firebreaks", "hawks"}) {
      const Reader list = lv.at(key);
      for (size_t i = 0; i < list.size(); ++i) {
        const Reader p = list.item(i);
        if (p.size() != 2) p.fail("a square is [a, b] in the tower's frame");
        const int a = static_cast<int>(p.item(0).integer(0, 7)), b = static_cast<int>(p.item(1).integer(0, 7));
        for (int sq : {square_at(a, 15 - b), square_at(15 - a, b), square_at(15 - a, 15 - b)})
          (std::string(key) == "hawks" ? ld.hawks : ld.breaks).push_back(sq);
      }
    }
  }
  return rules;
}

Rules with_deck(const Rules& rules, const Reader& deck) {
  Rules out = rules;
  read_cards(deck, rules, out.deck, nullptr);
  if (total(out.deck) > kMaxDeck) deck.fail("more than " + std::to_string(kMaxDeck) + " cards");
  out.custom_deck = true;
  return out;
}

// ------------------------------------------------------------ positions

State read_position(const Reader& p, const Rules& rules) {
  p.only({"game", "version", "level", "board", "wind", "hand", "draw_pile", "discard", "inferno", "burned", "buckets",
          "bucket_taken", "specialty", "turn", "round", "phase", "options", "hand_size", "hawk_supply"});
  State s;
  if (p.has("game") && p.at("game").string() != "firetower-solo") p.at("game").fail("expected \"firetower-solo\"");
  if (p.has("version")) p.at("version").integer(1, 1);
  s.level = static_cast<uint8_t>(p.at("level").integer(1, 7));
  s.hand_base = static_cast<uint8_t>(rules.levels[s.level].hand);

  // The board.
  const Reader board = p.at("board");
  if (board.size() != kSide) board.fail("16 rows of 16 characters");
  const Regions& reg = regions();
  for (int r = 0; r < kSide; ++r) {
    const Reader row = board.item(static_cast<size_t>(r));
    const std::string text = row.string();
    if (text.size() != kSide) row.fail("16 characters, got " + std::to_string(text.size()));
    for (int c = 0; c < kSide; ++c) {
      const int sq = square_at(r, c);
      const char ch = text[static_cast<size_t>(c)];
      const std::string where = square_json(sq) + " ";
      if ((ch == 'E') != reg.flame.test(sq))
        row.fail(where + (ch == 'E' ? "'E' off the Eternal Flame" : "is the Eternal Flame: it must be 'E'"));
      switch (ch) {
        case '.': case 'E': break;
        case 'F': s.gems.set(sq); break;
        case '#': s.breaks.set(sq); break;
        case 'H': s.hawks.set(sq); break;
        default: row.fail(where + "'" + std::string(1, ch) + "' is not one of . F E # H");
      }
    }
  }
  if (s.gems.test(kBackCorner[kNW])) board.fail("a gem on [0,0]: that game is already lost");
  if (s.hawks.count() > rules.hawks_total)
    board.fail(std::to_string(s.hawks.count()) + " hawks; there are " + std::to_string(rules.hawks_total));

  // Cards.
  const Reader hand = p.at("hand");
  hand.array();
  read_cards(hand, rules, s.hand, nullptr);
  s.hand_count = static_cast<uint8_t>(total(s.hand));
  std::vector<uint8_t> order;
  read_cards(p.at("draw_pile"), rules, s.draw, &order);
  if (p.at("draw_pile").json().is_array()) {
    s.draw_ordered = true;
    if (order.size() > kMaxKnown) p.at("draw_pile").fail("at most " + std::to_string(kMaxKnown) + " cards in a known order");
    s.known = static_cast<uint8_t>(order.size());
    for (size_t i = 0; i < order.size(); ++i) s.order[order.size() - 1 - i] = order[i];  // the top is written first
  }
  p.at("discard").object();
  read_cards(p.at("discard"), rules, s.discard, nullptr);
  for (size_t k = 0; k < rules.cards.size(); ++k)
    if (s.hand[k] + s.draw[k] + s.discard[k] != rules.deck[k])
      p.fail("hand + draw_pile + discard hold " + std::to_string(s.hand[k] + s.draw[k] + s.discard[k]) + " " +
             rules.cards[k].id + ", the deck has " + std::to_string(rules.deck[k]));
  if (s.hand[static_cast<size_t>(rules.firestorm)]) hand.fail("the Firestorm is never held: it resolves when drawn");

  // The Inferno.
  const Reader inf = p.at("inferno");
  inf.only({"deck", "discard", "revealed", "penalty", "round_ends"});
  std::vector<uint8_t> inf_order;
  read_cards(inf.at("deck"), rules, s.inferno, &inf_order);
  if (inf.at("deck").json().is_array()) {
    s.inferno_ordered = true;
    s.inferno_known = static_cast<uint8_t>(inf_order.size());
    for (size_t i = 0; i < inf_order.size(); ++i) s.inferno_order[inf_order.size() - 1 - i] = inf_order[i];
  }
  std::array<uint8_t, kMaxKinds> seen = s.inferno;
  const Reader discards = inf.at("discard");
  if (discards.size() > rules.inferno.size()) discards.fail("more cards than the Inferno has");
  for (size_t i = 0; i < discards.size(); ++i) {
    const uint8_t k = read_card(discards.item(i), rules);
    s.inferno_discard[s.inferno_discards++] = k;
    ++seen[k];
  }
  if (!inf.at("revealed").json().is_null()) {
    s.revealed = read_card(inf.at("revealed"), rules);
    ++seen[s.revealed];
  }
  s.penalty = inf.at("penalty").boolean();
  if (inf.has("round_ends")) s.round_ends = inf.at("round_ends").boolean();
  std::array<uint8_t, kMaxKinds> want{};
  for (int k : rules.inferno) ++want[static_cast<size_t>(k)];
  if (seen != want) inf.fail("deck + discard + revealed must be the Inferno's cards, each once");

  // Towers, Buckets, specialty cards.
  const Reader burned = p.at("burned");
  burned.only({"NE", "SW", "SE"});
  for (int t = kNE; t <= kSE; ++t)
    if (burned.at(kTowerName[t]).boolean()) s.burned = static_cast<uint8_t>(s.burned | 1 << t);
  const Reader buckets = p.at("buckets");
  buckets.only({"NW", "NE", "SW", "SE"});
  const std::string nw = buckets.at("NW").string();
  if (nw == "unused") s.player_bucket = kBucketUnused;
  else if (nw == "used") s.player_bucket = kBucketUsed;
  else if (nw == "none") s.player_bucket = kBucketNone;
  else buckets.at("NW").fail("\"unused\", \"used\" or \"none\"");
  for (int t = kNE; t <= kSE; ++t) {
    const std::string v = buckets.at(kTowerName[t]).string();
    if (v == "used") s.enemy_buckets_used = static_cast<uint8_t>(s.enemy_buckets_used | 1 << t);
    else if (v != "unused") buckets.at(kTowerName[t]).fail("\"unused\" or \"used\"");
  }
  if (p.has("bucket_taken")) s.bucket_taken = p.at("bucket_taken").boolean();
  const Reader spec = p.at("specialty");
  spec.only({"heavy_winds", "lookout"});
  for (const char* key : {"heavy_winds", "lookout"}) {
    const std::string v = spec.at(key).string();
    if (v != "front" && v != "back") spec.at(key).fail("\"front\" or \"back\"");
    (std::string(key) == "lookout" ? s.lookout_back : s.heavy_winds_back) = v == "back";
  }
  s.turn = static_cast<uint16_t>(p.at("turn").integer(1, 10000));
  s.round = static_cast<uint16_t>(p.at("round").integer(1, 10000));

  // Options.
  if (p.has("options")) {
    const Reader o = p.at("options");
    o.only({"challenges", "order_known", "turn_limit", "deck"});
    if (o.has("challenges") && o.at("challenges").string() != "off")
      o.at("challenges").fail("only \"off\" is supported (spec section 3)");
    if (o.has("order_known")) s.order_known_option = o.at("order_known").boolean();
    if (o.has("turn_limit")) s.turn_limit = static_cast<uint16_t>(o.at("turn_limit").integer(1, 10000));
    if (o.has("deck") && o.at("deck").json().is_string() && o.at("deck").string() != "default")
      o.at("deck").fail("\"default\" or a map {id: count}");
  }
  if (s.turn > s.turn_limit) p.at("turn").fail("past the turn limit " + std::to_string(s.turn_limit));

  if (s.hand_count > s.hand_size())
    hand.fail(std::to_string(s.hand_count) + " cards; the hand size is " + std::to_string(s.hand_size()));
  // Derived fields: checked when given (null is not given).
  auto given = [&](const char* key) { return p.has(key) && !p.at(key).json().is_null(); };
  if (given("hand_size") && p.at("hand_size").integer(0, 100) != s.hand_size())
    p.at("hand_size").fail("is " + std::to_string(s.hand_size()) + " (the level's hand + burned towers)");
  if (given("hawk_supply") && p.at("hawk_supply").integer(0, 100) != rules.hawks_total - s.hawk_count())
    p.at("hawk_supply").fail("is " + std::to_string(rules.hawks_total - s.hawk_count()));

  // The phase: the tasks that remain of the turn.
  const Reader phase = p.at("phase");
  const std::string ph = phase.string();
  const bool setup = ph == "setup_hawk";
  if (ph != "inferno_place" && s.revealed != kNull) inf.at("revealed").fail("only at phase inferno_place");
  if (ph == "inferno_place" && s.revealed == kNull) inf.at("revealed").fail("phase inferno_place needs the revealed card");
  if (s.penalty && ph != "inferno_place") inf.at("penalty").fail("only at phase inferno_place (a penalty's card)");
  if (setup != p.at("wind").json().is_null()) p.at("wind").fail(setup ? "null before the starting roll" : "a direction");
  if (!setup) s.wind = static_cast<uint8_t>(read_dir(p.at("wind"), false));
  const Engine engine(rules);
  engine.start_turn(s);  // inferno draw on top; the phase pops what is done
  int done = 0;
  if (setup) {
    s.stack[s.depth++] = Frame{Task::kStartWind};
    s.stack[s.depth++] = Frame{Task::kSetupHawk};
  } else if (ph == "inferno") {
  } else if (ph == "inferno_place") {
    done = 1;
  } else if (ph == "wind") {
    done = 2;
  } else if (ph == "action") {
    done = 3;
  } else if (ph == "end") {
    done = 5;
  } else {
    phase.fail("\"" + ph + "\" is not a phase a position can be at (setup_hawk, inferno, inferno_place, wind, action, end)");
  }
  s.depth = static_cast<uint8_t>(s.depth - done);
  return s;
}

namespace {

// Cards in order, as ids: `top_last` stacks (the piles keep their top
// last) are written top first.
std::string card_sequence(const uint8_t* cards, int n, bool top_last, const Rules& rules) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) {
    out += i ? "," : "";
    out += quote(rules.cards[cards[top_last ? n - 1 - i : i]].id);
  }
  return out + "]";
}

std::string board_rows(const State& s) {
  const Regions& reg = regions();
  std::string out = "[";
  for (int r = 0; r < kSide; ++r) {
    std::string row;
    for (int c = 0; c < kSide; ++c) {
      const int sq = square_at(r, c);
      row += s.pending.test(sq) ? 'X' : reg.flame.test(sq) ? 'E' : s.gems.test(sq) ? 'F' : s.breaks.test(sq) ? '#'
             : s.hawks.test(sq) ? 'H' : '.';
    }
    out += r ? "," : "";
    out += quote(row);
  }
  return out + "]";
}

std::string write_state(const State& s, const Rules& rules, const char* phase) {
  ObjectWriter w;
  w.add("game", quote("firetower-solo")).add("version", "1").add("level", std::to_string(s.level));
  w.add("board", board_rows(s));
  w.add("wind", s.wind < 4 ? quote(kDirName[s.wind]) : "null");
  std::vector<std::string> hand;
  for (size_t k = 0; k < rules.cards.size(); ++k)
    for (int i = 0; i < s.hand[k]; ++i) hand.push_back(rules.cards[k].id);
  w.add("hand", card_list(hand));
  // A pile is a list, top first, while its order is known; else a map.
  w.add("draw_pile", s.draw_ordered ? card_sequence(s.order.data(), s.known, true, rules) : counts_map(s.draw, rules));
  w.add("discard", counts_map(s.discard, rules));
  ObjectWriter inf;
  inf.add("deck", s.inferno_ordered ? card_sequence(s.inferno_order.data(), s.inferno_known, true, rules)
                                    : counts_map(s.inferno, rules));
  inf.add("discard", card_sequence(s.inferno_discard.data(), s.inferno_discards, false, rules));
  inf.add("revealed", s.revealed == kNull ? "null" : quote(rules.cards[s.revealed].id));
  inf.add("penalty", s.penalty ? "true" : "false");
  inf.add("round_ends", s.round_ends ? "true" : "false");
  w.add("inferno", inf.str());
  ObjectWriter burned, buckets;
  for (int t = kNE; t <= kSE; ++t) {
    burned.add(kTowerName[t], s.burned >> t & 1 ? "true" : "false");
    buckets.add(kTowerName[t], quote(s.enemy_buckets_used >> t & 1 ? "used" : "unused"));
  }
  buckets.add("NW", quote(s.player_bucket == kBucketNone ? "none" : s.player_bucket == kBucketUsed ? "used" : "unused"));
  w.add("burned", burned.str()).add("buckets", buckets.str());
  w.add("bucket_taken", s.bucket_taken ? "true" : "false");
  w.add("specialty", ObjectWriter()
                         .add("heavy_winds", quote(s.heavy_winds_back ? "back" : "front"))
                         .add("lookout", quote(s.lookout_back ? "back" : "front"))
                         .str());
  w.add("turn", std::to_string(s.turn)).add("round", std::to_string(s.round));
  w.add("phase", phase ? quote(phase) : "null");
  w.add("hand_size", std::to_string(s.hand_size()));
  w.add("hawk_supply", std::to_string(rules.hawks_total - s.hawk_count()));
  w.add("options", ObjectWriter()
                       .add("challenges", quote("off"))
                       .add("order_known", s.order_known_option ? "true" : "false")
                       .add("turn_limit", std::to_string(s.turn_limit))
                       .add("deck", rules.custom_deck ? counts_map(rules.deck, rules) : quote("default"))
                       .str());
  return w.str();
}

}  // namespace

std::optional<std::string> write_position(const State& s, const Rules& rules) {
  const char* phase = phase_of(s);
  if (!phase) return std::nullopt;
  return write_state(s, rules, phase);
}

std::string write_view(const State& s, const Rules& rules) {
  const char* phase = phase_of(s);
  return write_state(s, rules, phase ? phase : s.over() ? nullptr : need_name(s.need));
}

// ------------------------------------------------------------ moves

Move read_move(const Reader& r, const Rules& rules) {
  r.object();
  const std::string type = r.at("type").string();
  Move m;
  auto squares = [&](const char* key, size_t most) {
    const std::vector<int> sq = read_squares(r.at(key), most);
    for (int s : sq) m.sq[m.nsq++] = static_cast<uint8_t>(s);
  };
  auto square = [&](const char* key) { m.sq[m.nsq++] = static_cast<uint8_t>(read_square(r.at(key))); };
  auto cards = [&](const char* key, size_t most) {
    const Reader list = r.at(key);
    if (list.size() > most) list.fail("at most " + std::to_string(most) + " cards");
    std::vector<uint8_t> ks;
    for (size_t i = 0; i < list.size(); ++i) ks.push_back(read_card(list.item(i), rules));
    std::sort(ks.begin(), ks.end());
    for (uint8_t k : ks) m.cards[m.ncards++] = k;
  };
  // A card's play: its own fields (section 11.3), shared by "play" and "pick".
  auto play_fields = [&](std::initializer_list<std::string_view> also) {
    const CardKind& k = rules.cards[m.card];
    std::vector<std::string_view> keys = {"type", "card"};
    keys.insert(keys.end(), also.begin(), also.end());
    auto allow = [&](std::initializer_list<std::string_view> own) {
      keys.insert(keys.end(), own.begin(), own.end());
      for (const auto& f : r.json().fields)
        if (std::find(keys.begin(), keys.end(), f.first) == keys.end())
          throw InvalidInput((r.path().empty() ? "" : r.path() + ".") + f.first + ": not a field of a " + k.id + " play");
    };
    switch (k.effect) {
      case Effect::kExplosion: allow({"center"}); square("center"); break;
      case Effect::kEmber: allow({"from", "to"}); square("from"); square("to"); break;
      case Effect::kRollingFirebrand: {
        allow({"pair", "dir"});
        const std::vector<int> pair = read_squares(r.at("pair"), 2);
        if (pair.size() != 2) r.at("pair").fail("two squares");
        m.sq[0] = static_cast<uint8_t>(pair[0]);
        m.sq[1] = static_cast<uint8_t>(pair[1]);
        m.nsq = 2;
        m.arg = static_cast<uint8_t>(read_dir(r.at("dir"), false));
        break;
      }
      case Effect::kWind: {
        allow({"option", "wind", "square"});
        const std::string o = r.at("option").string();
        if (o == "set") {
          m.option = kSet;
          m.arg = static_cast<uint8_t>(read_dir(r.at("wind"), false));
        } else if (o == "roll") {
          m.option = kRoll;
        } else if (o == "gem") {
          m.option = kGem;
          square("square");
        } else {
          r.at("option").fail("\"set\", \"roll\" or \"gem\"");
        }
        break;
      }
      case Effect::kDeReforest: {
        allow({"option", "square"});
        const std::string o = r.at("option").string();
        if (o != "add" && o != "remove") r.at("option").fail("\"add\" or \"remove\"");
        m.option = o == "add" ? kAdd : kRemove;
        square("square");
        break;
      }
      case Effect::kBackburn: allow({"square"}); square("square"); break;
      case Effect::kHawks: {
        allow({"hawks", "take"});
        squares("hawks", 18);
        const std::vector<int> take = r.has("take") ? read_squares(r.at("take"), 3) : std::vector<int>{};
        for (int s : take) m.sq[static_cast<size_t>(m.nsq + m.ntake++)] = static_cast<uint8_t>(s);
        break;
      }
      case Effect::kFirestorm: r.at("card").fail("the Firestorm is never played");
      default:
        allow({"squares", "double"});
        if (r.has("double")) {
          if (k.effect != Effect::kCrownFire || !r.at("double").boolean())
            r.at("double").fail("only a Crown Fire pair is \"double\": true");
          m.option = kDouble;
        }
        squares("squares", 8);  // a Smokejumper's ring
        break;
    }
  };
  if (type == "setup_hawk" || type == "wind_gem") {
    r.only({"type", "square"});
    m.type = type == "setup_hawk" ? MoveType::kSetupHawk : MoveType::kWindGem;
    square("square");
  } else if (type == "inferno") {
    r.only({"type", "squares", "center"});
    m.type = MoveType::kInferno;
    if (r.has("squares") && r.has("center")) r.fail("either \"squares\" or \"center\"");
    if (r.has("squares")) squares("squares", 4);
    else if (r.has("center")) square("center"), m.arg = 1;
  } else if (type == "penalty") {
    r.only({"type", "storm"});
    m.type = MoveType::kPenalty;
    m.arg = static_cast<uint8_t>(read_dir(r.at("storm"), false));
  } else if (type == "play") {
    m.type = MoveType::kPlay;
    m.card = read_card(r.at("card"), rules);
    play_fields({});
  } else if (type == "pick") {
    m.type = MoveType::kPick;
    if (r.has("keep") && !r.at("keep").json().is_null()) m.keep = read_card(r.at("keep"), rules);
    if (r.at("card").json().is_null()) r.only({"type", "card", "keep"});
    else m.card = read_card(r.at("card"), rules), play_fields({"keep"});
  } else if (type == "discard" || type == "storm_discard") {
    r.only({"type", "cards"});
    m.type = type == "discard" ? MoveType::kDiscard : MoveType::kStormDiscard;
    cards("cards", 12);
  } else if (type == "reckless") {
    r.only({"type", "discard", "squares"});
    m.type = MoveType::kReckless;
    cards("discard", 3);
    squares("squares", 2);
  } else if (type == "specialty") {
    r.only({"type", "card", "discard"});
    m.type = MoveType::kSpecialty;
    const std::string which = r.at("card").string();
    if (which == "heavy_winds") m.card = kHeavyWinds;
    else if (which == "lookout") m.card = kLookout;
    else if (which == "patrol") m.card = kPatrol;
    else r.at("card").fail("\"heavy_winds\", \"lookout\" or \"patrol\"");
    if (m.card == kPatrol) m.cards[m.ncards++] = read_card(r.at("discard"), rules);
    else if (r.has("discard")) r.at("discard").fail("only Patrol discards");
  } else if (type == "heavy_wind" || type == "light_breeze") {
    m.type = type == "heavy_wind" ? MoveType::kHeavyWind : MoveType::kLightBreeze;
    if (r.at("card").json().is_null()) {
      r.only({"type", "card"});
    } else {
      r.only({"type", "card", "square"});
      m.card = read_card(r.at("card"), rules);
      square("square");
    }
  } else if (type == "bucket") {
    r.only({"type", "squares"});
    m.type = MoveType::kBucket;
    squares("squares", 3);
  } else if (type == "end" || type == "keep") {
    r.only({"type"});
    m.type = type == "end" ? MoveType::kEnd : MoveType::kKeep;
  } else if (type == "hawk") {
    r.only({"type", "from", "to"});
    m.type = MoveType::kHawk;
    square("from");
    if (!r.at("to").json().is_null()) square("to");
  } else if (type == "enemy_bucket") {
    r.only({"type", "tower", "squares"});
    m.type = MoveType::kEnemyBucket;
    const std::string t = r.at("tower").string();
    int tower = -1;
    for (int i = kNE; i <= kSE; ++i)
      if (t == kTowerName[i]) tower = i;
    if (tower < 0) r.at("tower").fail("\"NE\", \"SW\" or \"SE\"");
    m.arg = static_cast<uint8_t>(tower);
    squares("squares", 3);
  } else if (type == "reroll") {
    r.only({"type", "discard"});
    m.type = MoveType::kReroll;
    m.card = read_card(r.at("discard"), rules);
  } else {
    r.at("type").fail("\"" + type + "\" is not a move type");
  }
  return m;
}

std::string move_json(const Move& m, const Rules& rules) {
  ObjectWriter w;
  static const char* types[] = {"setup_hawk", "inferno", "penalty", "wind_gem", "play", "discard", "reckless",
                                "specialty", "heavy_wind", "pick", "light_breeze", "bucket", "end", "hawk",
                                "enemy_bucket", "reroll", "keep", "storm_discard"};
  w.add("type", quote(types[static_cast<int>(m.type)]));
  auto card = [&](uint8_t k) { return k == kNull ? std::string("null") : quote(rules.cards[k].id); };
  auto cards = [&]() {
    std::vector<std::string> ids;
    for (int i = 0; i < m.ncards; ++i) ids.push_back(rules.cards[m.cards[static_cast<size_t>(i)]].id);
    return card_list(ids);
  };
  switch (m.type) {
    case MoveType::kSetupHawk:
    case MoveType::kWindGem: w.add("square", square_json(m.sq[0])); break;
    case MoveType::kInferno:
      if (m.arg == 1) w.add("center", square_json(m.sq[0]));
      else if (m.nsq) w.add("squares", squares_json(m.sq.data(), m.nsq));
      break;
    case MoveType::kPenalty: w.add("storm", quote(kDirName[m.arg])); break;
    case MoveType::kPlay:
    case MoveType::kPick: {
      w.add("card", card(m.card));
      if (m.type == MoveType::kPick && m.keep != kNull) w.add("keep", card(m.keep));
      if (m.card == kNull) break;
      switch (rules.cards[m.card].effect) {
        case Effect::kExplosion: w.add("center", square_json(m.sq[0])); break;
        case Effect::kEmber: w.add("from", square_json(m.sq[0])).add("to", square_json(m.sq[1])); break;
        case Effect::kRollingFirebrand: w.add("pair", squares_json(m.sq.data(), 2)).add("dir", quote(kDirName[m.arg])); break;
        case Effect::kWind:
          if (m.option == kSet) w.add("option", quote("set")).add("wind", quote(kDirName[m.arg]));
          else if (m.option == kRoll) w.add("option", quote("roll"));
          else w.add("option", quote("gem")).add("square", square_json(m.sq[0]));
          break;
        case Effect::kDeReforest:
          w.add("option", quote(m.option == kAdd ? "add" : "remove")).add("square", square_json(m.sq[0]));
          break;
        case Effect::kBackburn: w.add("square", square_json(m.sq[0])); break;
        case Effect::kHawks:
          w.add("hawks", squares_json(m.sq.data(), m.nsq)).add("take", squares_json(m.sq.data() + m.nsq, m.ntake));
          break;
        default:
          if (m.option == kDouble) w.add("double", "true");
          w.add("squares", squares_json(m.sq.data(), m.nsq));
      }
      break;
    }
    case MoveType::kDiscard:
    case MoveType::kStormDiscard: w.add("cards", cards()); break;
    case MoveType::kReckless: w.add("discard", cards()).add("squares", squares_json(m.sq.data(), m.nsq)); break;
    case MoveType::kSpecialty:
      w.add("card", quote(m.card == kHeavyWinds ? "heavy_winds" : m.card == kLookout ? "lookout" : "patrol"));
      if (m.card == kPatrol) w.add("discard", card(m.cards[0]));
      break;
    case MoveType::kHeavyWind:
    case MoveType::kLightBreeze:
      w.add("card", card(m.card));
      if (m.card != kNull) w.add("square", square_json(m.sq[0]));
      break;
    case MoveType::kBucket: w.add("squares", squares_json(m.sq.data(), m.nsq)); break;
    case MoveType::kHawk: w.add("from", square_json(m.sq[0])).add("to", m.nsq == 2 ? square_json(m.sq[1]) : "null"); break;
    case MoveType::kEnemyBucket: w.add("tower", quote(kTowerName[m.arg])).add("squares", squares_json(m.sq.data(), m.nsq)); break;
    case MoveType::kReroll: w.add("discard", card(m.card)); break;
    case MoveType::kEnd:
    case MoveType::kKeep: break;
  }
  return w.str();
}

// ------------------------------------------------------------ chance events and records

bool is_chance_event(const Json& j) { return j.is_object() && j.find("chance"); }

uint8_t read_chance(const Reader& r, const State& s, const Rules& rules) {
  const std::string kind = r.at("chance").string();
  const char* expected = s.need == Need::kInfernoDraw ? "inferno" : s.need == Need::kDraw ? "draw" : "die";
  if (kind != expected) r.at("chance").fail("the next chance event is \"" + std::string(expected) + "\", not \"" + kind + "\"");
  if (kind == "die") {
    r.only({"chance", "dir"});
    return static_cast<uint8_t>(read_dir(r.at("dir"), false));
  }
  r.only({"chance", "card"});
  return read_card(r.at("card"), rules);
}

std::string chance_json(const State& s, uint8_t value, const Rules& rules) {
  if (s.need == Need::kDie) return ObjectWriter().add("chance", quote("die")).add("dir", quote(kDirName[value])).str();
  return ObjectWriter()
      .add("chance", quote(s.need == Need::kInfernoDraw ? "inferno" : "draw"))
      .add("card", quote(rules.cards[value].id))
      .str();
}

// A chance point with one outcome may be left out of a record (15.5): it
// is played when the next event is anything but that outcome.
void skip_single_outcomes(const Engine& engine, State& s, const Json& next) {
  std::vector<Outcome> outcomes;
  while (s.at_chance()) {
    engine.outcomes(s, outcomes);
    if (outcomes.size() != 1) return;
    if (is_chance_event(next) && write_json(next) == chance_json(s, outcomes[0].value, engine.rules())) return;
    engine.apply_chance(s, outcomes[0].value);
  }
}

State load_state(const Engine& engine, const Reader& r) {
  const bool record = r.json().is_object() && r.has("start");
  State s = read_position(record ? r.at("start") : r, engine.rules());
  engine.advance(s);
  return s;
}

Replay replay(const Engine& engine, const Reader& record, bool keep_states) {
  record.only({"start", "events"});
  Replay out;
  out.state = load_state(engine, record);
  const Reader events = record.at("events");
  out.events = events.size();
  std::vector<Outcome> outcomes;
  std::vector<Move> moves;
  for (size_t i = 0; i < out.events; ++i) {
    const Reader e = events.item(i);
    State& s = out.state;
    try {
      if (s.over()) e.fail(std::string("the game is over (") + status_name(s.status) + ")");
      skip_single_outcomes(engine, s, e.json());
      if (s.over()) e.fail(std::string("the game is over (") + status_name(s.status) + ")");
      engine.outcomes(s, outcomes);
      if (is_chance_event(e.json())) {
        if (!s.at_chance()) e.fail(std::string("a chance event where the player decides (") + need_name(s.need) + ")");
        const uint8_t v = read_chance(e, s, engine.rules());
        if (std::none_of(outcomes.begin(), outcomes.end(), [&](const Outcome& o) { return o.value == v; }))
          e.fail(chance_json(s, v, engine.rules()) + " cannot happen here");
        engine.apply_chance(s, v);
      } else {
        if (!s.at_decision()) e.fail(std::string("a move where a chance event (") + need_name(s.need) + ") comes first");
        const Move m = read_move(e, engine.rules());
        if (!engine.is_legal(s, m)) e.fail(move_json(m, engine.rules()) + " is not a legal " + need_name(s.need) + " move");
        engine.apply(s, m);
      }
    } catch (const InvalidInput& err) {
      out.bad_index = static_cast<long long>(i);
      out.reason = err.what();
      return out;
    }
    if (keep_states) out.after.push_back(out.state);
  }
  return out;
}

}  // namespace sj::firetower
