#include "builder.hpp"
#include "tablebase.hpp"

namespace dama::egtb {

std::string rules_name(const RuleSet& rules) {
  for (const auto& v : kVariants) {
    if (v.rules == rules) return std::string(v.name);
    if (v.rules.without_forced_capture() == rules) return std::string(v.name) + " (capture not compulsory)";
  }
  return describe(rules);
}

void parallel_chunks(std::uint64_t n, int threads, const std::function<void(std::uint64_t, std::uint64_t)>& work) {
  constexpr std::uint64_t kChunk = 4096;
  const int count = static_cast<int>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, (n + kChunk - 1) / kChunk)));
  std::atomic<std::uint64_t> next{0};
  const auto worker = [&] {
    for (;;) {
      const std::uint64_t begin = next.fetch_add(kChunk);
      if (begin >= n) return;
      work(begin, std::min(n, begin + kChunk));
    }
  };
  if (count == 1) return worker();
  std::vector<std::thread> pool;
  for (int t = 1; t < count; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

}  // namespace dama::egtb
