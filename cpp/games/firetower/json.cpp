#include "games/firetower/json.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstdio>

#include "core/error.hpp"

namespace sj::firetower {

namespace {

constexpr int kMaxNesting = 64;

class Parser {
 public:
  explicit Parser(std::string_view t) : t_(t) {}

  Json document() {
    Json j = value(0);
    space();
    if (i_ != t_.size()) fail("unexpected text after the JSON value");
    return j;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    size_t line = 1, col = 1;
    for (size_t k = 0; k < i_ && k < t_.size(); ++k) {
      if (t_[k] == '\n') ++line, col = 1;
      else ++col;
    }
    throw InvalidInput("invalid JSON at line " + std::to_string(line) + " column " + std::to_string(col) + ": " + why);
  }
  void space() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t')) ++i_;
  }
  bool literal(std::string_view w) {
    if (t_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }

  Json value(int depth) {
    if (depth > kMaxNesting) fail("nested too deeply");
    space();
    if (i_ >= t_.size()) fail("a value is missing");
    Json j;
    const char c = t_[i_];
    if (c == '{') {
      j.kind = Json::Kind::kObject;
      ++i_;
      space();
      if (i_ < t_.size() && t_[i_] == '}') {
        ++i_;
        return j;
      }
      while (true) {
        space();
        if (i_ >= t_.size() || t_[i_] != '"') fail("expected a quoted key");
        std::string key = string();
        for (const auto& f : j.fields)
          if (f.first == key) fail("key \"" + key + "\" is given twice");
        space();
        if (i_ >= t_.size() || t_[i_] != ':') fail("expected ':'");
        ++i_;
        j.fields.emplace_back(std::move(key), value(depth + 1));
        space();
        if (i_ < t_.size() && t_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ < t_.size() && t_[i_] == '}') {
          ++i_;
          return j;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      j.kind = Json::Kind::kArray;
      ++i_;
      space();
      if (i_ < t_.size() && t_[i_] == ']') {
        ++i_;
        return j;
      }
      while (true) {
        j.items.push_back(value(depth + 1));
        space();
        if (i_ < t_.size() && t_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ < t_.size() && t_[i_] == ']') {
          ++i_;
          return j;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      j.kind = Json::Kind::kString;
      j.text = string();
      return j;
    }
    if (literal("true")) {
      j.kind = Json::Kind::kBool;
      j.boolean = true;
      return j;
    }
    if (literal("false")) {
      j.kind = Json::Kind::kBool;
      return j;
    }
    if (literal("null")) return j;
    return number();
  }

  Json number() {
    const size_t start = i_;
    bool integer = true;
    if (i_ < t_.size() && t_[i_] == '-') ++i_;
    const size_t digits = i_;
    while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) ++i_;
    if (i_ == digits) fail("expected a value");
    if (i_ < t_.size() && t_[i_] == '.') {
      integer = false;
      ++i_;
      while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) ++i_;
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      integer = false;
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) ++i_;
    }
    Json j;
    j.kind = Json::Kind::kNumber;
    j.integer = integer;
    j.number = std::strtod(std::string(t_.substr(start, i_ - start)).c_str(), nullptr);
    return j;
  }

  std::string string() {
    ++i_;  // the opening quote
    std::string out;
    while (true) {
      if (i_ >= t_.size()) fail("unterminated string");
      const char c = t_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= t_.size()) fail("unterminated string");
      const char e = t_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (i_ + 4 > t_.size()) fail("bad \\u escape");
          unsigned cp = 0;
          for (int k = 0; k < 4; ++k) {
            const char h = t_[i_++];
            cp <<= 4;
            if (h >= '0' && h <= '9') cp |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f') cp |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F') cp |= static_cast<unsigned>(h - 'A' + 10);
            else fail("bad \\u escape");
          }
          // Names in this game are ASCII; anything else is kept as UTF-8 of the code unit.
          if (cp < 0x80) {
            out += static_cast<char>(cp);
          } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          }
          break;
        }
        default: fail("bad escape in a string");
      }
    }
  }

  std::string_view t_;
  size_t i_ = 0;
};

}  // namespace

const Json* Json::find(std::string_view key) const {
  for (const auto& f : fields)
    if (f.first == key) return &f.second;
  return nullptr;
}

Json parse_json(std::string_view text) { return Parser(text).document(); }

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string write_json(const Json& j) {
  switch (j.kind) {
    case Json::Kind::kNullValue: return "null";
    case Json::Kind::kBool: return j.boolean ? "true" : "false";
    case Json::Kind::kNumber: {
      if (j.integer && std::fabs(j.number) < 9e15) return std::to_string(static_cast<long long>(j.number));
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", j.number);
      return buf;
    }
    case Json::Kind::kString: return quote(j.text);
    case Json::Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < j.items.size(); ++i) {
        out += i ? "," : "";
        out += write_json(j.items[i]);
      }
      return out + "]";
    }
    case Json::Kind::kObject: {
      ObjectWriter w;
      for (const auto& f : j.fields) w.add(f.first, write_json(f.second));
      return w.str();
    }
  }
  return "null";
}

std::string ObjectWriter::str() {
  std::sort(fields_.begin(), fields_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out = "{";
  for (size_t i = 0; i < fields_.size(); ++i) {
    out += i ? "," : "";
    out += quote(fields_[i].first) + ":" + fields_[i].second;
  }
  return out + "}";
}

// ------------------------------------------------------------ reading with paths

void Reader::fail(const std::string& why) const { throw InvalidInput((path_.empty() ? "" : path_ + ": ") + why); }

bool Reader::has(std::string_view key) const { return j_.is_object() && j_.find(key) != nullptr; }

Reader Reader::at(std::string_view key) const {
  object();
  const Json* v = j_.find(key);
  const std::string where = path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  if (!v) throw InvalidInput(where + ": missing");
  return Reader(*v, where);
}

Reader Reader::item(size_t i) const {
  std::string where = path_;
  where += "[";
  where += std::to_string(i);
  where += "]";
  return Reader(j_.items.at(i), where);
}

size_t Reader::size() const {
  array();
  return j_.items.size();
}

void Reader::object() const {
  if (!j_.is_object()) fail("expected an object");
}

void Reader::array() const {
  if (!j_.is_array()) fail("expected a list");
}

void Reader::only(std::initializer_list<std::string_view> keys) const {
  object();
  for (const auto& f : j_.fields)
    if (std::find(keys.begin(), keys.end(), f.first) == keys.end())
      throw InvalidInput((path_.empty() ? "" : path_ + ".") + f.first + ": not a field here");
}

std::string Reader::string() const {
  if (!j_.is_string()) fail("expected a string");
  return j_.text;
}

long long Reader::integer(long long lo, long long hi) const {
  if (j_.kind != Json::Kind::kNumber || !j_.integer) fail("expected an integer");
  if (j_.number < static_cast<double>(lo) || j_.number > static_cast<double>(hi))
    fail(write_json(j_) + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<long long>(j_.number);
}

bool Reader::boolean() const {
  if (j_.kind != Json::Kind::kBool) fail("expected true or false");
  return j_.boolean;
}

}  // namespace sj::firetower
