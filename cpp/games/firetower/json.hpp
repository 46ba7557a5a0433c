// A small JSON document type, reader and writer for the game's positions,
// moves and records (spec section 11), so the engine and its C++ tests
// read the spec's formats themselves. Inputs are bounded by the callers
// (the Python layer refuses more than 1 MiB); nesting is bounded here.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sj::firetower {

struct Json {
  enum class Kind : uint8_t { kNullValue, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNullValue;
  bool boolean = false;
  double number = 0;
  bool integer = false;  // written without a fraction or exponent
  std::string text;
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> fields;

  bool is_null() const { return kind == Kind::kNullValue; }
  bool is_object() const { return kind == Kind::kObject; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_string() const { return kind == Kind::kString; }
  const Json* find(std::string_view key) const;
};

// Parses `text`; throws InvalidInput naming the line and column.
Json parse_json(std::string_view text);

// Writing, canonically: keys sorted, no spaces.
std::string quote(std::string_view s);
std::string write_json(const Json& j);

// Builds a canonical object from (key, already-written value) pairs.
class ObjectWriter {
 public:
  ObjectWriter& add(std::string key, std::string value) {
    fields_.emplace_back(std::move(key), std::move(value));
    return *this;
  }
  std::string str();

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

// Reading with a path for errors: "board[3]", "events[12].squares[0]".
class Reader {
 public:
  Reader(const Json& j, std::string path) : j_(j), path_(std::move(path)) {}
  const Json& json() const { return j_; }
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& why) const;
  Reader at(std::string_view key) const;            // a required key
  bool has(std::string_view key) const;
  Reader item(size_t i) const;
  size_t size() const;                              // an array's length
  void object() const;
  void array() const;
  void only(std::initializer_list<std::string_view> keys) const;  // no other key
  std::string string() const;
  long long integer(long long lo, long long hi) const;
  bool boolean() const;

 private:
  const Json& j_;
  std::string path_;
};

}  // namespace sj::firetower
