#include <algorithm>

#include "core/rng.hpp"
#include "games/volcano/volcano.hpp"

namespace sj::volcano {

PositionSpec random_standard_layout(uint64_t seed) {
  Rng rng(seed);
  constexpr int kTiles = 36;
  auto contains = [](const std::vector<Axial>& set, Axial a) {
    return std::find(set.begin(), set.end(), a) != set.end();
  };
  auto touching = [&](const std::vector<Axial>& set, Axial a) {
    int k = 0;
    for (int d = 0; d < kHexDirections; ++d) k += contains(set, hex_neighbor(a, d));
    return k;
  };
  while (true) {
    // Grow from a triangle, adding only cells that touch two tiles already
    // laid: every tile then touches at least two others, as the set-up asks.
    std::vector<Axial> cells{{0, 0}, {1, 0}, {0, 1}};
    while (static_cast<int>(cells.size()) < kTiles) {
      std::vector<Axial> candidates;
      for (Axial c : cells)
        for (int d = 0; d < kHexDirections; ++d) {
          const Axial a = hex_neighbor(c, d);
          if (!contains(cells, a) && !contains(candidates, a) && touching(cells, a) >= 2)
            candidates.push_back(a);
        }
      cells.push_back(candidates[rng.below(candidates.size())]);
    }
    std::vector<int> enclosed;
    for (int i = 0; i < kTiles; ++i)
      if (touching(cells, cells[i]) == kHexDirections) enclosed.push_back(i);
    if (enclosed.empty()) continue;
    const int volcano = enclosed[rng.below(enclosed.size())];

    std::vector<int> numbers;
    for (int n = 1; n <= 6; ++n) numbers.insert(numbers.end(), 6, n);
    rng.shuffle(numbers);

    PositionSpec spec;
    spec.standard = true;
    spec.volcano = cells[volcano];
    for (int i = 0; i < kTiles; ++i)
      if (i != volcano)
        spec.tiles.push_back({cells[i].q, cells[i].r, numbers[i], kDefaultSpaces[numbers[i]], 0});
    return spec;
  }
}

}  // namespace sj::volcano
