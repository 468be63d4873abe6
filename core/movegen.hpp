// Legal move generation, compiled once per rule set (RULES.md).  Everything is
// bitboard arithmetic on Board's layout; the only per-piece work is the
// depth-first search of capture sequences.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bitboard.hpp"
#include "board.hpp"
#include "move.hpp"
#include "position.hpp"
#include "variant.hpp"

namespace dama {

// How capture sequences that share (from, to, captured set) are counted:
// Unique treats them as one move (RULES.md); Paths keeps every sequence, the
// convention of several published perft tables.
enum class Counting : std::uint8_t { Unique, Paths };

template <Dir... Ds, class F>
[[gnu::always_inline]] constexpr void each_dir(F&& f) {
  (f(std::integral_constant<Dir, Ds>{}), ...);
}

template <RuleSet R, Counting K = Counting::Unique>
class MoveGenerator {
 public:
  using Board = BoardFor<R>;
  using Bitboard = typename Board::Bitboard;
  using Pos = Position<Board>;
  using List = MoveList<Board>;
  using MoveT = Move<Board>;

  static void generate(const Pos& p, List& out) {
    p.side == Color::White ? generate<Color::White>(p, out) : generate<Color::Black>(p, out);
  }
  static int count(const Pos& p) {
    return p.side == Color::White ? count<Color::White>(p) : count<Color::Black>(p);
  }
  static bool has_capture(const Pos& p) {
    return p.side == Color::White ? has_capture<Color::White>(p) : has_capture<Color::Black>(p);
  }

  template <Color C>
  static void generate(const Pos& p, List& out) {
    out.clear();
    const bool kings_capture = kings_can_capture<C>(p);
    if (men_can_capture<C>(p) || kings_capture) {
      const ManJumps jumps = man_jumps<C>(p);
      if (!kings_capture && !jumps.any_continuing) {
        add_single_jumps<C>(p, jumps, out);
      } else {
        ListSink sink{out, 0, {}};
        search_captures<C>(p, jumps, kings_capture, sink);
      }
      if constexpr (R.forced_capture) return;
    }
    generate_steps<C>(p, out);
  }

  // The number of legal moves, without listing them (bulk counting).
  template <Color C>
  [[gnu::always_inline]] static int count(const Pos& p) {
    const bool kings_capture = kings_can_capture<C>(p);
    if (!men_can_capture<C>(p) && !kings_capture) return count_steps<C>(p);
    return count_captures<C>(p, kings_capture) + (R.forced_capture ? 0 : count_steps<C>(p));
  }

  template <Color C>
  static bool has_capture(const Pos& p) {
    return men_can_capture<C>(p) || kings_can_capture<C>(p);
  }

 private:
  // Men's first jumps split by what follows: after a `single` jump the man
  // cannot jump again (a complete one-piece capture); after a `continuing` one
  // it can, or it is crowned and goes on as a king.
  struct ManJumps {
    Bitboard single[4];      // landing squares, by direction of the jump
    Bitboard continuing[4];  // landing squares, by direction of the jump
    Bitboard any_continuing;
  };

  // Pieces a man may jump: every enemy piece, or only men where men may not take kings.
  template <Color C>
  static Bitboard man_targets(const Pos& p) {
    if constexpr (R.men_capture_kings) return p.of(~C);
    else return p.of(~C) & ~p.kings;
  }

  template <Color C, class F>
  static constexpr void man_step_dirs(F&& f) {
    if constexpr (C == Color::White) each_dir<NE, NW>(f);
    else each_dir<SE, SW>(f);
  }
  template <Color C, class F>
  static constexpr void man_capture_dirs(F&& f) {
    if constexpr (R.men_capture_backwards) each_dir<NE, NW, SE, SW>(f);
    else man_step_dirs<C>(f);
  }

  // Whether any man can jump; kHasTwoSteps spares the mask of the middle step.
  template <Color C>
  [[gnu::always_inline]] static bool men_can_capture(const Pos& p) {
    const Bitboard men = p.men(C), victims = man_targets<C>(p), empty = p.empty();
    Bitboard landings = 0;
    man_capture_dirs<C>([&](auto d) {
      constexpr Dir D = decltype(d)::value;
      landings |= Board::template step_unmasked<D>(Board::template step<D>(men & Board::kHasTwoSteps[D]) & victims);
    });
    return (landings & empty) != 0;
  }

  template <Color C>
  static bool kings_can_capture(const Pos& p) {
    const Bitboard kings = p.kings_of(C);
    if (!kings) return false;
    const Bitboard empty = p.empty(), enemy = p.of(~C);
    Bitboard landings = 0;
    each_dir<NE, NW, SE, SW>([&](auto d) {
      constexpr Dir D = decltype(d)::value;
      Bitboard first_hit;
      if constexpr (R.flying_kings) {
        Bitboard ray = Board::template step<D>(kings);
        first_hit = ray & enemy;
        ray &= empty;
        while (ray) {
          ray = Board::template step<D>(ray);
          first_hit |= ray & enemy;
          ray &= empty;
        }
      } else {
        first_hit = Board::template step<D>(kings) & enemy;
      }
      landings |= Board::template step<D>(first_hit) & empty;
    });
    return landings != 0;
  }

  template <Color C>
  static int count_steps(const Pos& p) {
    const Bitboard empty = p.empty(), men = p.men(C), kings = p.kings_of(C);
    int n = 0;
    man_step_dirs<C>([&](auto d) { n += popcount(Board::template step<decltype(d)::value>(men) & empty); });
    if (kings) {
      each_dir<NE, NW, SE, SW>([&](auto d) {
        constexpr Dir D = decltype(d)::value;
        Bitboard ray = Board::template step<D>(kings) & empty;
        if constexpr (R.flying_kings) {
          while (ray) {
            n += popcount(ray);
            ray = Board::template step<D>(ray) & empty;
          }
        } else {
          n += popcount(ray);
        }
      });
    }
    return n;
  }

  static MoveT make_step(int from, int to, bool promotes) {
    MoveT m;
    m.captured = 0;
    m.from = static_cast<std::uint8_t>(from);
    m.to = static_cast<std::uint8_t>(to);
    m.promotes = promotes;
    m.landing_count = 0;
    return m;
  }

  template <Color C>
  static void generate_steps(const Pos& p, List& out) {
    const Bitboard empty = p.empty(), men = p.men(C);
    constexpr Bitboard crowning = Board::kCrowningRow[index(C)];
    MoveT* cursor = out.cursor();
    man_step_dirs<C>([&](auto d) {
      constexpr Dir D = decltype(d)::value;
      for_each_bit(Bitboard(Board::template step<D>(men) & empty), [&](int to) {
        const Bitboard to_bit = Bitboard{1} << to;
        *cursor++ = make_step(lowest_bit(Board::template step_unmasked<opposite(D)>(to_bit)), to, (to_bit & crowning) != 0);
      });
    });
    for_each_bit(p.kings_of(C), [&](int from) {
      const Bitboard king = Bitboard{1} << from;
      each_dir<NE, NW, SE, SW>([&](auto d) {
        constexpr Dir D = decltype(d)::value;
        Bitboard square = Board::template step<D>(king) & empty;
        while (square) {
          *cursor++ = make_step(from, lowest_bit(square), false);
          if constexpr (!R.flying_kings) break;
          square = Board::template step<D>(square) & empty;
        }
      });
    });
    out.set_cursor(cursor);
  }

  static constexpr bool kTowers = R.prisoners == Prisoners::UnderCapturer;

  // With towers, two sequences of one (from, to, captured set) are still two
  // moves when the pieces they take, kings or men in the order taken, differ:
  // the prisoners stack in that order under the capturer.  The order is kept
  // for the moves of a list only there.
  struct NoPrisonerOrders {
    void record(int, std::uint32_t) {}
    bool same(int, std::uint32_t) const { return true; }
  };
  struct PrisonerOrders {
    PrisonerOrders() {}  // left unset: only entries recorded are read
    void record(int i, std::uint32_t order) { orders[i] = order; }
    bool same(int i, std::uint32_t order) const { return orders[i] == order; }
    std::array<std::uint32_t, List::kCapacity> orders;
  };
  using PrisonerLog = std::conditional_t<kTowers, PrisonerOrders, NoPrisonerOrders>;

  // Where complete capture sequences go.  Both sinks keep one entry per
  // identity under Counting::Unique; sequences of one piece never repeat one.
  struct ListSink {
    static constexpr bool kKeepsPath = true;
    List& out;
    int first;
    PrisonerLog prisoners;
    int size() const { return out.size() - first; }
    void reset() { out.truncate(first); }
    void add(std::uint8_t from, std::uint8_t to, Bitboard captured, bool promotes, int count,
             const std::uint8_t* landings, std::uint32_t king_order) {
      if constexpr (K == Counting::Unique) {
        if (count >= 2)
          for (int i = first; i < out.size(); ++i)
            if (out[i].from == from && out[i].to == to && out[i].captured == captured &&
                prisoners.same(i, king_order))
              return;
      }
      prisoners.record(out.size(), king_order);
      MoveT& m = out.push();
      m.captured = captured;
      m.from = from;
      m.to = to;
      m.promotes = promotes;
      m.landing_count = static_cast<std::uint8_t>(count - 1);
      for (int i = 0; i + 1 < count; ++i) m.landings[i] = landings[i];
    }
  };

  struct CountSink {
    static constexpr bool kKeepsPath = false;
    struct Identity {
      Bitboard captured;
      std::uint32_t king_order;  // kept for towers only, 0 otherwise
      std::uint8_t from, to;
    };
    int total = 0;
    int multi = 0;  // identities of sequences of two or more pieces, for de-duplication
    Identity seen[List::kCapacity];
    void reset() { total = multi = 0; }
    void add(std::uint8_t from, std::uint8_t to, Bitboard captured, bool, int count, const std::uint8_t*,
             std::uint32_t king_order) {
      if constexpr (K == Counting::Unique) {
        if (count >= 2) {
          if constexpr (!kTowers) king_order = 0;
          for (int i = 0; i < multi; ++i)
            if (seen[i].from == from && seen[i].to == to && seen[i].captured == captured &&
                seen[i].king_order == king_order)
              return;
          if (multi == List::kCapacity) throw Error("move list overflow while counting captures");
          seen[multi++] = {captured, king_order, from, to};
        }
      }
      ++total;
    }
    int size() const { return total; }
    void add_many(int n) { total += n; }
  };

  template <Color C, class Sink>
  static void search_captures(const Pos& p, const ManJumps& jumps, bool kings_capture, Sink& sink) {
    CaptureSearch<C, Sink> search(p, sink);
    if (kings_capture) {
      for_each_bit(p.kings_of(C), [&](int from) { search.from_king(from); });
      if constexpr (R.choice == CaptureChoice::KingFirst) {
        if (sink.size() > 0) return;  // a king can capture: men may not
      }
    }
    man_capture_dirs<C>([&](auto d) {
      constexpr Dir D = decltype(d)::value;
      constexpr Dir Back = opposite(D);
      for_each_bit(Board::template step_unmasked<Back>(Board::template step_unmasked<Back>(jumps.single[D] | jumps.continuing[D])),
                   [&](int from) { search.template from_man<D>(from); });
    });
  }

  template <Color C>
  static ManJumps man_jumps(const Pos& p) {
    ManJumps j{{0, 0, 0, 0}, {0, 0, 0, 0}, 0};
    const Bitboard empty = p.empty(), victims = man_targets<C>(p), men = p.men(C);
    constexpr Bitboard crowning = Board::kCrowningRow[index(C)];
    // can_jump[d]: squares from which a man could jump along d.  From a landing
    // square only the way back differs from the position as it stands (the
    // jumped piece is there), and a man never jumps straight back.
    Bitboard can_jump[4] = {0, 0, 0, 0};
    man_capture_dirs<C>([&](auto d) {
      constexpr Dir D = decltype(d)::value;
      constexpr Dir Back = opposite(D);
      can_jump[D] = Board::template step<Back>(Board::template step<Back>(empty) & victims);
    });
    man_capture_dirs<C>([&](auto d) {
      constexpr Dir D = decltype(d)::value;
      constexpr Dir Back = opposite(D);
      const Bitboard movers = can_jump[D] & men;
      if (!movers) return;
      const Bitboard landings = Board::template step_unmasked<D>(Board::template step_unmasked<D>(movers));
      Bitboard others = 0;
      each_dir<NE, NW, SE, SW>([&](auto other) {
        if constexpr (decltype(other)::value != Back) others |= can_jump[decltype(other)::value];
      });
      Bitboard continuing = landings & others;
      if constexpr (R.crowning == CrowningInCapture::ContinueAsKing) continuing |= landings & crowning;
      if constexpr (R.crowning == CrowningInCapture::EndsMove) continuing &= ~crowning;
      j.continuing[D] = continuing;
      j.single[D] = landings & ~continuing;
      j.any_continuing |= continuing;
    });
    return j;
  }

  // Under "most pieces, then most kings", single jumps taking a king exclude the others.
  template <Color C>
  static Bitboard single_jump_victims_kept(const Pos& p, Bitboard victims_of_singles) {
    if constexpr (R.choice == CaptureChoice::MostPiecesThenKings) {
      const Bitboard kings = victims_of_singles & p.kings_of(~C);
      if (kings) return kings;
    }
    return victims_of_singles;
  }

  // Lists the captures when every one is a man's single jump.
  template <Color C>
  static void add_single_jumps(const Pos& p, const ManJumps& jumps, List& out) {
    constexpr Bitboard crowning = Board::kCrowningRow[index(C)];
    Bitboard all_victims = 0;
    man_capture_dirs<C>([&](auto d) {
      all_victims |= Board::template step<opposite(decltype(d)::value)>(jumps.single[decltype(d)::value]);
    });
    const Bitboard kept = single_jump_victims_kept<C>(p, all_victims);
    MoveT* cursor = out.cursor();
    man_capture_dirs<C>([&](auto d) {
      constexpr Dir D = decltype(d)::value;
      for_each_bit(jumps.single[D], [&](int to) {
        const Bitboard landing = Bitboard{1} << to;
        const Bitboard victim = Board::template step_unmasked<opposite(D)>(landing);
        if (!(victim & kept)) return;
        MoveT m = make_step(lowest_bit(Board::template step_unmasked<opposite(D)>(victim)), to, (landing & crowning) != 0);
        m.captured = victim;
        *cursor++ = m;
      });
    });
    out.set_cursor(cursor);
  }

  // Counts captures as search_captures would list them, settling in bulk
  // every single jump — most captures in play — and searching only the rest.
  template <Color C>
  static int count_captures(const Pos& p, bool kings_capture) {
    const ManJumps jumps = man_jumps<C>(p);
    if (!kings_capture && !jumps.any_continuing) {
      Bitboard victims = 0;
      man_capture_dirs<C>([&](auto d) {
        victims |= Board::template step<opposite(decltype(d)::value)>(jumps.single[decltype(d)::value]);
      });
      // Two men never jump the same piece to the same square, so victims and
      // landings pair up one to one per direction; count by direction.
      const Bitboard kept = single_jump_victims_kept<C>(p, victims);
      int n = 0;
      man_capture_dirs<C>([&](auto d) {
        n += popcount(Board::template step<opposite(decltype(d)::value)>(jumps.single[decltype(d)::value]) & kept);
      });
      return n;
    }
    CountSink sink;
    CaptureSearch<C, CountSink> search(p, sink);
    if (kings_capture) {
      for_each_bit(p.kings_of(C), [&](int from) { search.from_king(from); });
      if constexpr (R.choice == CaptureChoice::KingFirst) {
        if (sink.size() > 0) return sink.size();
      }
    }
    const Bitboard enemy_kings = p.kings_of(~C);
    man_capture_dirs<C>([&](auto d) {
      constexpr Dir D = decltype(d)::value;
      constexpr Dir Back = opposite(D);
      if (const Bitboard single = jumps.single[D]) {
        const int king_victims = popcount(Board::template step<Back>(single) & enemy_kings);
        search.emit_single_jumps(popcount(single) - king_victims, king_victims);
      }
      for_each_bit(jumps.continuing[D], [&](int landing) {
        const Bitboard from = Board::template step<Back>(Board::template step<Back>(Bitboard{1} << landing));
        search.template from_man<D>(lowest_bit(from));
      });
    });
    return sink.size();
  }

  // Depth-first search of every capture sequence of one side, keeping only
  // those of the highest priority under the variant's choice rule.
  template <Color C, class Sink>
  class CaptureSearch {
   public:
    CaptureSearch(const Pos& p, Sink& sink)
        : empty_(p.empty()), enemy_(p.of(~C)), enemy_kings_(p.kings_of(~C)), sink_(sink) {}

    void from_king(int from) {
      begin(from, true);
      continue_as_king(origin_, NE);
    }

    // A man whose first jump along D is known to exist.
    template <Dir D>
    void from_man(int from) {
      begin(from, false);
      const Bitboard victim = Board::template step<D>(origin_);
      jump_as_man<D>(victim, Board::template step<D>(victim));
    }

    // n men's single jumps taking men and k taking kings, each a complete
    // sequence (counting only).
    void emit_single_jumps(int men_taken, int kings_taken) {
      mover_is_king_ = false;
      count_ = 1;
      if (men_taken && admit()) sink_.add_many(men_taken);
      kings_taken_ = 1;
      king_order_ = 0x8000u;
      if (kings_taken && admit()) sink_.add_many(kings_taken);
      count_ = kings_taken_ = 0;
      king_order_ = 0;
    }

   private:
    static constexpr Bitboard kCrowning = Board::kCrowningRow[index(C)];

    void begin(int from, bool king) {
      origin_ = Bitboard{1} << from;
      from_ = static_cast<std::uint8_t>(from);
      mover_is_king_ = king;
      crowned_ = false;
      free_ = empty_ | origin_;  // the mover has left its square; it may pass or end there
    }

    // Squares the mover may pass over or land on now.
    Bitboard passable() const {
      if constexpr (R.removal == Removal::AtOnce) return free_ | captured_;
      else return free_;  // jumped pieces stay and block until the move ends
    }
    Bitboard king_victims() const { return enemy_ & ~captured_; }
    Bitboard man_victims() const {
      if constexpr (R.men_capture_kings) return enemy_ & ~captured_;
      else return enemy_ & ~captured_ & ~enemy_kings_;
    }

    // Only the Spanish and Italian orders look at which pieces were kings.
    static constexpr bool kTracksKings =
        R.choice == CaptureChoice::MostPiecesThenKings || R.choice == CaptureChoice::Italian || kTowers;

    // The caller records the landing square with land().
    void take(Bitboard victim) {
      captured_ |= victim;
      if constexpr (kTracksKings) {
        if (victim & enemy_kings_) {
          ++kings_taken_;
          king_order_ |= 0x8000u >> count_;
        }
      }
      ++count_;
    }
    void untake(Bitboard victim) {
      --count_;
      captured_ &= ~victim;
      if constexpr (kTracksKings) {
        if (victim & enemy_kings_) {
          --kings_taken_;
          king_order_ &= ~(0x8000u >> count_);
        }
      }
    }
    // Landing squares matter only to a list (for notation), not to a count.
    void land(int square) {
      if constexpr (Sink::kKeepsPath) landing_[count_ - 1] = static_cast<std::uint8_t>(square);
    }

    template <Dir D>
    void jump_as_man(Bitboard victim, Bitboard landing) {
      take(victim);
      land(lowest_bit(landing));
      if (landing & kCrowning) {
        if constexpr (R.crowning == CrowningInCapture::ContinueAsKing) {
          crowned_ = true;
          continue_as_king(landing, D);
          crowned_ = false;
        } else if constexpr (R.crowning == CrowningInCapture::EndsMove) {
          emit(landing, true);
        } else {
          continue_as_man<D>(landing);
        }
      } else {
        continue_as_man<D>(landing);
      }
      untake(victim);
    }

    // A man never jumps straight back: the square behind holds the piece it took.
    template <Dir Arrived>
    void continue_as_man(Bitboard at) {
      bool extended = false;
      man_capture_dirs<C>([&](auto d) {
        constexpr Dir D = decltype(d)::value;
        if constexpr (D != opposite(Arrived)) {
          const Bitboard victim = Board::template step<D>(at) & man_victims();
          if (!victim) return;
          const Bitboard landing = Board::template step<D>(victim) & passable();
          if (!landing) return;
          extended = true;
          jump_as_man<D>(victim, landing);
        }
      });
      if (!extended) emit(at, (at & kCrowning) != 0);
    }

    // The first piece a king at `at` meets along D that it may take (0 if none).
    template <Dir D>
    Bitboard king_victim_along(Bitboard at, Bitboard open) const {
      Bitboard square = Board::template step<D>(at);
      if constexpr (R.flying_kings) {
        while (square & open) square = Board::template step<D>(square);
      }
      return square & king_victims();
    }

    // Straight back is blocked by the piece just jumped, which stays on the board.
    template <Dir D>
    bool blocked_behind(Dir arrived) const {
      return R.removal == Removal::AtEnd && count_ > 0 && D == opposite(arrived);
    }

    bool king_can_capture(Bitboard at, Dir arrived) const {
      const Bitboard open = passable();
      bool found = false;
      each_dir<NE, NW, SE, SW>([&](auto d) {
        constexpr Dir D = decltype(d)::value;
        if (found || blocked_behind<D>(arrived)) return;
        const Bitboard victim = king_victim_along<D>(at, open);
        found = victim && (Board::template step<D>(victim) & open);
      });
      return found;
    }

    // Flying kings: after a jump along D, landing squares further along D only
    // repeat what the first one reaches going straight on, so only the first
    // carries the straight continuation (one sequence, as published tables count).
    void continue_as_king(Bitboard at, Dir arrived, bool straight_on = true) {
      bool extended = false;
      each_dir<NE, NW, SE, SW>([&](auto d) {
        constexpr Dir D = decltype(d)::value;
        if (blocked_behind<D>(arrived)) return;
        const Bitboard open = passable();
        const Bitboard victim = king_victim_along<D>(at, open);
        if (!victim) return;
        Bitboard landings = Board::template step<D>(victim) & open;
        if (!landings) return;
        extended = true;
        if (R.flying_kings && count_ > 0 && D == arrived && !straight_on) return;
        take(victim);
        const Bitboard first = landings;
        if constexpr (R.flying_kings) {
          // A flying king must land where it can go on capturing, if there is such a square.
          for (Bitboard l = Board::template step<D>(landings) & open; l; l = Board::template step<D>(l) & open)
            landings |= l;
          Bitboard continuing = 0;
          for_each_bit(landings, [&](int l) {
            if (king_can_capture(Bitboard{1} << l, D)) continuing |= Bitboard{1} << l;
          });
          if (continuing) landings = continuing;
        }
        for_each_bit(landings, [&](int l) {
          land(l);
          const Bitboard square = Bitboard{1} << l;
          continue_as_king(square, D, square == first);
        });
        untake(victim);
      });
      if (!extended && count_ > 0) emit(at, crowned_);
    }

    std::uint32_t priority() const {
      switch (R.choice) {
        case CaptureChoice::Any: return 0;
        case CaptureChoice::KingFirst: return mover_is_king_ ? 1 : 0;
        case CaptureChoice::MostPieces: return count_;
        case CaptureChoice::MostPiecesThenKings: return (count_ << 8) | kings_taken_;
        case CaptureChoice::Italian:
          return (count_ << 24) | (mover_is_king_ << 23) | (kings_taken_ << 16) | king_order_;
      }
      return 0;
    }

    // Whether the current sequence ranks with the best so far under the choice
    // rule; a better one discards those kept before.
    bool admit() {
      if constexpr (R.choice != CaptureChoice::Any) {
        const std::uint32_t rank = priority();
        if (rank < best_) return false;
        if (rank > best_) {
          sink_.reset();
          best_ = rank;
        }
      }
      return true;
    }

    void emit(Bitboard at, bool promotes) {
      if (!admit()) return;
      sink_.add(from_, static_cast<std::uint8_t>(lowest_bit(at)), captured_, promotes && !mover_is_king_, count_,
                landing_, king_order_);
    }

    const Bitboard empty_, enemy_, enemy_kings_;
    Sink& sink_;
    std::uint32_t best_ = 0;

    Bitboard origin_ = 0, free_ = 0, captured_ = 0;
    std::uint8_t from_ = 0;
    bool mover_is_king_ = false, crowned_ = false;
    int count_ = 0, kings_taken_ = 0;
    std::uint32_t king_order_ = 0;
    std::uint8_t landing_[Board::kMaxCaptures];
  };
};

}  // namespace dama
