// Building the tables by retrograde analysis (docs/endgame-tables.md).
//
// Slices are built in materials_in_build_order: a capture leads to fewer
// pieces and a crowning to fewer men, both built before.  A slice and its
// colour swap are built together, since every quiet move leads from one to
// the other.  For each position of the pair:
//  1. from its moves: no move is a loss (a win in poddavki); a capture or a crowning that leaves
//     the opponent lost is a win (looked up in the finished tables); a
//     capture or crowning to a draw is a "draw exit"; the quiet moves that
//     stay in the pair are counted;
//  2. every position decided so far is taken back one quiet move (its
//     predecessors: a piece of the side that just moved steps back, where
//     that move was legal -- under compulsory capture, only from a position
//     without a capture): a predecessor of a loss is a win; a predecessor of
//     a win loses one of its counted moves, and with none left and no draw
//     exit it is a loss.  Round after round until nothing changes;
//  3. what is left undecided is a draw.
// This is the least fixed point of "win if some move reaches a lost position,
// loss if every move reaches a won one": exact win/draw/loss, the game's draw
// counters ignored.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../atomic_file.hpp"
#include "../error.hpp"
#include "../movegen.hpp"
#include "../utc_time.hpp"
#include "tablebase.hpp"

namespace dama::egtb {

struct BuildOptions {
  std::string dir;
  int pieces = 4;
  int threads = 1;
};

struct SliceReport {
  Material material;
  std::uint64_t positions = 0;
  WdlCounts counts;
  double seconds = 0;
  bool reused = false;  // read from a file of an earlier run
};

// Runs work(begin, end) over [0, n) in chunks on `threads` threads.
void parallel_chunks(std::uint64_t n, int threads, const std::function<void(std::uint64_t, std::uint64_t)>& work);

template <RuleSet R>
class PairBuilder {
 public:
  using Board = BoardFor<R>;
  using Bitboard = typename Board::Bitboard;
  using Pos = Position<Board>;
  using Gen = MoveGenerator<R>;
  using Index = SliceIndex<Board>;

  PairBuilder(const Tablebase<R>& finished, const Material& m, int threads, const std::function<bool()>& stop)
      : finished_(finished), threads_(threads), stop_(stop) {
    slices_.push_back(Work(m));
    if (!(m.swapped() == m)) slices_.push_back(Work(m.swapped()));
  }

  // False when stopped part way (nothing is kept then).  Positions are
  // decided in order of their distance (see distances()): round d takes
  // back the positions at distance d, and what it decides is at d + 1.
  bool run() {
    std::vector<Item> at_distance[2];  // 0 and 1: what the moves alone decide
    for (int s = 0; s < static_cast<int>(slices_.size()); ++s) initialise(s, at_distance);
    std::vector<Item> current = std::move(at_distance[0]), next = std::move(at_distance[1]);
    for (int d = 0; !current.empty() || !next.empty(); ++d) {
      if (stop_ && stop_()) return false;
      std::vector<Item> found = propagate(current, d + 1);
      next.insert(next.end(), found.begin(), found.end());
      current = std::move(next);
      next.clear();
    }
    return true;
  }

  int slice_count() const { return static_cast<int>(slices_.size()); }
  const Material& material(int s) const { return slices_[s].index.material(); }
  PackedValues values(int s) const {
    const Work& w = slices_[s];
    PackedValues out(w.index.size());
    for (std::uint64_t i = 0; i < w.index.size(); ++i) {
      const std::uint8_t st = w.state[i];
      if (st & kHole) continue;
      const Wdl v = Wdl(st & kValueMask);
      out.set(i, v == Wdl::Unknown ? Wdl::Draw : v);
    }
    return out;
  }

  // Plies to a capture, a crowning or the end of the game under best play
  // (the winner hurrying, the loser delaying), for won and lost positions;
  // 0 for draws and holes; kFarDistance stands for that many or more.
  std::vector<std::uint8_t> distances(int s) const { return slices_[s].distance; }

 private:
  static constexpr std::uint8_t kValueMask = 3, kDrawExit = 4, kHole = 8;
  struct Work {
    explicit Work(const Material& m)
        : index(m), state(index.size(), 0), moves_left(index.size(), 0), distance(index.size(), 0) {}
    Index index;
    std::vector<std::uint8_t> state;       // Wdl in the low bits, kDrawExit, kHole
    std::vector<std::uint8_t> moves_left;  // counted quiet moves not yet known to lose
    std::vector<std::uint8_t> distance;    // of decided positions, capped at kFarDistance
  };
  struct Item {
    std::uint32_t slice;
    std::uint64_t index;
  };

  static std::uint8_t capped(int d) { return static_cast<std::uint8_t>(std::min(d, int{kFarDistance})); }

  int other(int s) const { return slices_.size() == 1 ? s : 1 - s; }

  static bool leaves_slice(const Move<Board>& m) { return m.is_capture() || m.promotes; }

  // The value of a position with Black to move, from a finished table.
  Wdl finished_value(const Pos& child) const {
    const auto v = finished_.probe(child);
    if (!v) throw Error("endgame table build: a capture or crowning leads to a slice not built yet (build order)");
    return *v;
  }

  void initialise(int s, std::vector<Item> (&frontier)[2]) {
    Work& w = slices_[s];
    std::mutex merge;
    parallel_chunks(w.index.size(), threads_, [&](std::uint64_t begin, std::uint64_t end) {
      std::vector<Item> decided[2];
      MoveList<Board> moves;
      for (std::uint64_t i = begin; i < end; ++i) {
        Pos q;
        if (!w.index.decode(i, q)) {
          w.state[i] = kHole;
          continue;
        }
        Gen::template generate<Color::White>(q, moves);
        bool win = false, draw_exit = false;
        int counted = 0;
        for (const auto& m : moves) {
          if (!leaves_slice(m)) {
            ++counted;
            continue;
          }
          const Wdl v = finished_value(q.template after<Color::White>(m));
          win |= v == Wdl::Loss;
          draw_exit |= v == Wdl::Draw;
        }
        w.moves_left[i] = static_cast<std::uint8_t>(counted);
        if (win || (counted == 0 && !draw_exit)) {
          // A win by a capture or crowning, or a loss whose every move is
          // one: a ply from the conversion.  No move at all: the end, now
          // (a loss, or in poddavki a win).
          const Wdl value = win ? Wdl::Win : moves.empty() ? no_move_value(no_move_wins(R)) : Wdl::Loss;
          w.state[i] = static_cast<std::uint8_t>(value);
          const int d = moves.empty() ? 0 : 1;
          w.distance[i] = static_cast<std::uint8_t>(d);
          decided[d].push_back({static_cast<std::uint32_t>(s), i});
        } else {
          w.state[i] = counted == 0 ? static_cast<std::uint8_t>(Wdl::Draw) : draw_exit ? kDrawExit : 0;
        }
      }
      std::lock_guard lock(merge);
      for (int d = 0; d < 2; ++d) frontier[d].insert(frontier[d].end(), decided[d].begin(), decided[d].end());
    });
  }

  // One round: every predecessor of the decided positions, updated.
  std::vector<Item> propagate(const std::vector<Item>& decided, int distance) {
    std::vector<Item> next;
    std::mutex merge;
    parallel_chunks(decided.size(), threads_, [&](std::uint64_t begin, std::uint64_t end) {
      std::vector<Item> found;
      for (std::uint64_t k = begin; k < end; ++k) {
        const Item item = decided[k];
        Pos q;
        slices_[item.slice].index.decode(item.index, q);
        const Wdl value = Wdl(slices_[item.slice].state[item.index] & kValueMask);
        const int target = other(static_cast<int>(item.slice));
        for_each_predecessor(q, [&](const Pos& before) { update(target, before.flipped(), value, distance, found); });
      }
      std::lock_guard lock(merge);
      next.insert(next.end(), found.begin(), found.end());
    });
    return next;
  }

  // `before` (White to move, in slice target) has a quiet move to a position
  // whose side to move has `value`.
  void update(int target, const Pos& before, Wdl value, int distance, std::vector<Item>& found) {
    Work& w = slices_[target];
    const std::uint64_t i = w.index.index(before);
    std::atomic_ref<std::uint8_t> state(w.state[i]);
    std::uint8_t seen = state.load(std::memory_order_relaxed);
    if (seen & kValueMask) return;  // decided already
    if (value == Wdl::Loss) {
      if (state.compare_exchange_strong(seen, static_cast<std::uint8_t>(Wdl::Win))) {
        w.distance[i] = capped(distance);
        found.push_back({static_cast<std::uint32_t>(target), i});
      }
      return;
    }
    std::atomic_ref<std::uint8_t> left(w.moves_left[i]);
    if (left.fetch_sub(1) == 1 && !(seen & kDrawExit)) {
      std::uint8_t expected = 0;
      if (state.compare_exchange_strong(expected, static_cast<std::uint8_t>(Wdl::Loss))) {
        w.distance[i] = capped(distance);
        found.push_back({static_cast<std::uint32_t>(target), i});
      }
    }
  }

  // The positions (Black to move) from which Black reaches q (White to move)
  // by a legal quiet move that keeps the material: a black king steps back
  // along a diagonal, or a black man steps back towards its own side.
  template <class F>
  static void for_each_predecessor(const Pos& q, F&& f) {
    const Bitboard empty = q.empty();
    const auto emit = [&](Bitboard from, Bitboard to, bool king) {
      Pos p = q;
      p.pieces[1] = (q.pieces[1] & ~to) | from;
      if (king) p.kings = (q.kings & ~to) | from;
      p.side = Color::Black;
      if (R.forced_capture && Gen::template has_capture<Color::Black>(p)) return;
      f(p);
    };
    for_each_bit(q.kings_of(Color::Black), [&](int bit) {
      const Bitboard to = Bitboard{1} << bit;
      each_dir<NE, NW, SE, SW>([&](auto d) {
        constexpr Dir D = decltype(d)::value;
        Bitboard from = Board::template step<D>(to) & empty;
        while (from) {
          emit(from, to, true);
          if constexpr (!R.flying_kings) break;
          from = Board::template step<D>(from) & empty;
        }
      });
    });
    // Black's men move towards row 1 (SE, SW): they came from NE or NW.
    for_each_bit(q.men(Color::Black), [&](int bit) {
      const Bitboard to = Bitboard{1} << bit;
      each_dir<NE, NW>([&](auto d) {
        if (const Bitboard from = Board::template step<decltype(d)::value>(to) & empty) emit(from, to, false);
      });
    });
  }

  const Tablebase<R>& finished_;
  int threads_;
  std::function<bool()> stop_;
  std::vector<Work> slices_;
};

// Builds (or reads back from an earlier run) every slice up to
// options.pieces into `tables`, writing each new one atomically to
// options.dir.  on_slice is called for each slice; stop() is asked between
// rounds, and a stopped build keeps every slice already written.  Returns
// false when stopped.
template <RuleSet R>
bool build_tables(const BuildOptions& options, Tablebase<R>& tables, const std::function<void(const SliceReport&)>& on_slice,
                  const std::function<bool()>& stop) {
  refuse_towers<R>("endgame table build");
  std::filesystem::create_directories(options.dir);
  check_can_write(table_path(options.dir, Material{0, 1, 0, 1}), "endgame table");
  const auto order = materials_in_build_order(options.pieces);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const Material m = order[k];
    const bool paired = !(m.swapped() == m);
    if (tables.has(m)) continue;
    const bool on_disk = std::filesystem::exists(table_path(options.dir, m)) &&
                         (!paired || std::filesystem::exists(table_path(options.dir, m.swapped())));
    if (on_disk) {
      for (const Material& each : paired ? std::vector{m, m.swapped()} : std::vector{m}) {
        tables.load_slice(options.dir, each);
        const auto* s = tables.slice(each);
        if (on_slice) on_slice({each, s->index.size(), s->values.counts(), 0, true});
      }
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    PairBuilder<R> builder(tables, m, options.threads, stop);
    if (!builder.run()) return false;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (int s = 0; s < builder.slice_count(); ++s) {
      PackedValues values = builder.values(s);
      std::vector<std::uint8_t> distances = builder.distances(s);
      const nlohmann::json metadata = {{"built", utc_timestamp_now()}, {"seconds", seconds}, {"builder", "dama egtb build"}};
      write_file_atomically(table_path(options.dir, builder.material(s)),
                            render_table_file(identity_of<R>(builder.material(s)), values, distances, metadata));
      const WdlCounts counts = values.counts();
      const std::uint64_t positions = values.positions();
      tables.add(builder.material(s), std::move(values), std::move(distances));
      if (on_slice) on_slice({builder.material(s), positions, counts, seconds / builder.slice_count(), false});
    }
    if (stop && stop()) return false;
  }
  return true;
}

}  // namespace dama::egtb
