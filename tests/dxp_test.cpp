// DXP: the messages (with the examples of the protocol's own pages,
// http://www.mesander.nl/damexchange/), positions and moves on the 10x10
// board, the endpoint syntax, and layer 1 framing over a loopback socket.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <atomic>
#include <set>
#include <thread>

#include "dxp/dxp_board.hpp"
#include "dxp/dxp_message.hpp"
#include "dxp_link.hpp"
#include "dxp_peer.hpp"
#include "error.hpp"
#include "test_support.hpp"

namespace dama {
namespace {

using ::testing::HasSubstr;

constexpr RuleSet kInternational = test::variant_rules("international");
using Board10 = BoardFor<kInternational>;

template <class T>
T parsed(std::string_view text) {
  const dxp::Message m = dxp::parse(text);
  EXPECT_TRUE(std::holds_alternative<T>(m)) << text;
  EXPECT_EQ(dxp::format(m), text) << "written back differently";
  return std::get<T>(m);
}

std::string error_of(std::string_view text) {
  try {
    dxp::parse(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(DxpMessage, ReadsAndWritesTheSpecificationsExamples) {
  const auto r = parsed<dxp::GameRequest>("R01Tornado voor Windows 4.0        W060065A");
  EXPECT_EQ(r.initiator_name, "Tornado voor Windows 4.0");
  EXPECT_EQ(r.follower_color, Color::White);
  EXPECT_EQ(r.minutes, 60);
  EXPECT_EQ(r.moves, 65);
  EXPECT_TRUE(r.squares.empty());

  const auto a = parsed<dxp::GameAccept>("ATornado voor Windows 4.0        0");
  EXPECT_EQ(a.follower_name, "Tornado voor Windows 4.0");
  EXPECT_EQ(a.code, dxp::Acceptance::Accepted);

  const auto step = parsed<dxp::MoveMessage>("M0012061100");
  EXPECT_EQ(step.seconds, 12);
  EXPECT_EQ(step.from, 6);
  EXPECT_EQ(step.to, 11);
  EXPECT_TRUE(step.captured.empty());

  const auto capture = parsed<dxp::MoveMessage>("M001205250422122320");
  EXPECT_EQ(capture.from, 5);
  EXPECT_EQ(capture.to, 25);
  EXPECT_EQ(capture.captured, (std::vector<int>{22, 12, 23, 20}));

  const auto end = parsed<dxp::GameEnd>("E00");
  EXPECT_EQ(end.reason, dxp::EndReason::Unspecified);
  EXPECT_FALSE(end.stop);
  EXPECT_TRUE(parsed<dxp::GameEnd>("E31").stop);
  EXPECT_EQ(parsed<dxp::Chat>("CWhat do you think about move 35?").text, "What do you think about move 35?");
  const auto back = parsed<dxp::BackRequest>("B005Z");
  EXPECT_EQ(back.move_number, 5);
  EXPECT_EQ(back.to_move, Color::Black);
  EXPECT_EQ(parsed<dxp::BackAccept>("K1").code, dxp::BackAnswer::NotSupported);
}

TEST(DxpMessage, AGameRequestCarriesAPosition) {
  dxp::GameRequest r;
  r.initiator_name = "dama";
  r.follower_color = Color::Black;
  r.minutes = 5;
  r.squares = std::string(20, 'z') + std::string(10, 'e') + std::string(19, 'w') + "W";
  r.to_move = Color::Black;
  const std::string text = dxp::format(r);
  EXPECT_EQ(text.size(), 94u);
  EXPECT_EQ(text.substr(0, 3 + 32), "R01dama" + std::string(28, ' '));
  const auto back = parsed<dxp::GameRequest>(text);
  EXPECT_EQ(back.squares, r.squares);
  EXPECT_EQ(back.to_move, Color::Black);
  EXPECT_EQ(back.minutes, 5);
  EXPECT_EQ(back.moves, 0);
}

TEST(DxpMessage, RefusesMalformedMessagesNamingTheField) {
  EXPECT_THAT(error_of(""), HasSubstr("empty"));
  EXPECT_THAT(error_of("X123"), HasSubstr("unknown type 'X'"));
  EXPECT_THAT(error_of("M00120611"), HasSubstr("number captured missing"));
  EXPECT_THAT(error_of("M0012061101"), HasSubstr("captured square missing"));
  EXPECT_THAT(error_of("M0012069900"), HasSubstr("to square 99 is outside 1..50"));
  EXPECT_THAT(error_of("M00a2061100"), HasSubstr("time '00a2' is not 4 digits"));
  EXPECT_THAT(error_of("M001206110099"), HasSubstr("characters too many"));
  EXPECT_THAT(error_of("E2"), HasSubstr("stop code missing"));
  EXPECT_THAT(error_of("E45"), HasSubstr("reason '4'"));
  EXPECT_THAT(error_of("R01Tornado voor Windows 4.0        X060065A"), HasSubstr("follower colour 'X'"));
  EXPECT_THAT(error_of("R01Tornado voor Windows 4.0        W060065C"), HasSubstr("starting position 'C'"));
  EXPECT_THAT(error_of("R01Tornado voor Windows 4.0        W060065BW" + std::string(50, 'q')),
              HasSubstr("square 1 has 'q'"));
  EXPECT_THAT(error_of("R01Tornado voor Windows 4.0        W060065BW" + std::string(49, 'e')),
              HasSubstr("position missing"));
  EXPECT_THAT(error_of("ATornado"), HasSubstr("follower name missing"));
  EXPECT_THAT(error_of("C" + std::string(127, 'x')), HasSubstr("at most 127"));
  EXPECT_THAT(error_of("K7"), HasSubstr("acceptance code '7'"));
}

TEST(DxpMessage, NamesArePaddedAndNeverStartWithABlank) {
  EXPECT_EQ(dxp::padded_name("  Scan"), "Scan" + std::string(28, ' '));
  EXPECT_EQ(dxp::padded_name(std::string(40, 'n')).size(), 32u);
  EXPECT_THROW(dxp::format(dxp::MoveMessage{0, 100, 1, {}}), Error);
}

TEST(DxpBoard, TheStartPositionAsDxpWritesIt) {
  const auto start = Position<Board10>::start(Color::White);
  EXPECT_EQ(dxp::format_squares(start), std::string(20, 'z') + std::string(10, 'e') + std::string(20, 'w'));
  EXPECT_EQ(dxp::request_position<Board10>(dxp::GameRequest{}), start);
}

TEST(DxpBoard, PositionsAndEveryLegalMoveSurviveTheMessages) {
  int captures = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const Game<kInternational> game = test::random_game(Game<kInternational>(), seed, 150);
    for (const auto& p : game.positions()) {
      dxp::GameRequest r;
      r.squares = dxp::format_squares(p);
      r.to_move = p.side;
      const auto request = std::get<dxp::GameRequest>(dxp::parse(dxp::format(r)));
      ASSERT_EQ(dxp::request_position<Board10>(request), p);
      MoveList<Board10> legal;
      MoveGenerator<kInternational>::generate(p, legal);
      for (const auto& m : legal) {
        const auto message = std::get<dxp::MoveMessage>(dxp::parse(dxp::format(dxp::to_message(m, 3))));
        ASSERT_TRUE(dxp::find_move<kInternational>(p, message).same_identity(m));
        captures += m.is_capture();
      }
    }
  }
  EXPECT_GT(captures, 100);
}

TEST(DxpBoard, RefusesAMoveThatIsNotLegal) {
  const auto start = Position<Board10>::start(Color::White);
  EXPECT_NO_THROW(dxp::find_move<kInternational>(start, dxp::MoveMessage{0, 32, 28, {}}));
  EXPECT_THROW(dxp::find_move<kInternational>(start, dxp::MoveMessage{0, 32, 26, {}}), Error);  // not a neighbour
  EXPECT_THROW(dxp::find_move<kInternational>(start, dxp::MoveMessage{0, 19, 23, {}}), Error);  // black's man
  EXPECT_THROW(dxp::find_move<kInternational>(start, dxp::MoveMessage{0, 32, 28, {23}}), Error);  // no capture
  dxp::GameRequest r;
  r.squares = "w" + std::string(49, 'e');  // a white man on its crowning row
  EXPECT_THROW(dxp::request_position<Board10>(r), Error);
}

TEST(DxpPeer, OutcomesReadTheSendersView) {
  EXPECT_EQ(eval::outcome_of_peer_end(dxp::EndReason::ILose, Color::White), Outcome::FirstPlayerWins);
  EXPECT_EQ(eval::outcome_of_peer_end(dxp::EndReason::ILose, Color::Black), Outcome::SecondPlayerWins);
  EXPECT_EQ(eval::outcome_of_peer_end(dxp::EndReason::IWin, Color::White), Outcome::SecondPlayerWins);
  EXPECT_EQ(eval::outcome_of_peer_end(dxp::EndReason::Draw, Color::Black), Outcome::Draw);
  EXPECT_EQ(eval::outcome_of_peer_end(dxp::EndReason::Unspecified, Color::Black), Outcome::Ongoing);
  EXPECT_EQ(eval::end_reason_for(Outcome::FirstPlayerWins, Color::White), dxp::EndReason::IWin);
  EXPECT_EQ(eval::end_reason_for(Outcome::FirstPlayerWins, Color::Black), dxp::EndReason::ILose);
  EXPECT_EQ(eval::end_reason_for(Outcome::Draw, Color::White), dxp::EndReason::Draw);
}

TEST(DxpLink, Endpoints) {
  const auto e = eval::parse_endpoint("127.0.0.1:5000", "--connect", false);
  EXPECT_EQ(e.host, "127.0.0.1");
  EXPECT_EQ(e.port, 5000);
  EXPECT_EQ(eval::parse_endpoint("localhost", "--connect", false).port, eval::kDxpPort);
  EXPECT_EQ(eval::parse_endpoint("[::1]:7", "--connect", false).host, "::1");
  EXPECT_EQ(eval::parse_endpoint("[::1]:7", "--connect", false).text(), "[::1]:7");
  const auto listen = eval::parse_endpoint("0", "--listen", true);
  EXPECT_TRUE(listen.host.empty());
  EXPECT_EQ(listen.port, 0);
  EXPECT_THROW(eval::parse_endpoint("host:0", "--connect", false), Error);
  EXPECT_THROW(eval::parse_endpoint("host:99999", "--connect", false), Error);
  EXPECT_THROW(eval::parse_endpoint("host:x1", "--connect", false), Error);
  EXPECT_THROW(eval::parse_endpoint(":5000", "--connect", false), Error);
  EXPECT_THROW(eval::parse_endpoint("[::1", "--connect", false), Error);
}

// Messages cut anywhere and run together on the stream come out whole, in order.
TEST(DxpLink, FramesMessagesOnTheStream) {
  eval::DxpListener listener(eval::parse_endpoint("127.0.0.1:0", "--listen", true));
  std::atomic<bool> cancel{false};
  std::thread sender([&] {
    auto link = eval::DxpLink::connect({"127.0.0.1", listener.port()}, 5000);
    link.send("E00");
    link.send("M0012061100");
    link.send("CHello");
  });
  auto server = listener.accept(&cancel);
  ASSERT_TRUE(server);
  EXPECT_EQ(server->receive(5000), "E00");
  EXPECT_EQ(server->receive(5000), "M0012061100");
  EXPECT_EQ(server->receive(5000), "CHello");
  sender.join();
  try {
    server->receive(5000);
    ADD_FAILURE() << "no error for a closed connection";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("closed the connection"));
  }
}

TEST(DxpLink, RefusesAMessageWithoutItsEnd) {
  eval::DxpListener listener(eval::parse_endpoint("127.0.0.1:0", "--listen", true));
  auto client = eval::DxpLink::connect({"127.0.0.1", listener.port()}, 5000);
  auto server = listener.accept(nullptr);
  ASSERT_TRUE(server);
  client.send(std::string(200, 'C').substr(0, 127) + "CCCCCCCCCC");  // 137 characters before the '\0'
  EXPECT_THROW(server->receive(5000), Error);
}

TEST(DxpLink, ReceiveTimesOutAndCancels) {
  eval::DxpListener listener(eval::parse_endpoint("127.0.0.1:0", "--listen", true));
  auto client = eval::DxpLink::connect({"127.0.0.1", listener.port()}, 5000);
  auto server = listener.accept(nullptr);
  ASSERT_TRUE(server);
  EXPECT_FALSE(server->receive(100));
  std::atomic<bool> cancel{true};
  EXPECT_FALSE(server->receive(60000, &cancel));
  EXPECT_FALSE(listener.accept(&cancel));
}

// The dialogue: GAMEREQ / GAMEACC, a move each way, CHAT and BACKREQ handled
// on the way, GAMEEND confirmed.
TEST(DxpPeer, ADialogueBetweenAnInitiatorAndAFollower) {
  eval::DxpListener listener(eval::parse_endpoint("127.0.0.1:0", "--listen", true));
  std::vector<std::string> follower_notes;
  std::thread follower([&] {
    auto link = listener.accept(nullptr);
    eval::DxpPeer peer(std::move(*link), "follower", [&](const std::string& s) { follower_notes.push_back(s); });
    const auto request = peer.await_request(nullptr);
    ASSERT_TRUE(request);
    EXPECT_EQ(request->minutes, 3);
    peer.answer_request(dxp::Acceptance::Accepted);
    const auto first = peer.await_turn(5000, nullptr);
    ASSERT_TRUE(first && first->move);
    EXPECT_EQ(first->move->from, 32);
    peer.send_move(dxp::MoveMessage{1, 19, 23, {}});
    const auto end = peer.await_turn(5000, nullptr);
    ASSERT_TRUE(end && end->end);
    EXPECT_EQ(end->end->reason, dxp::EndReason::Draw);
    EXPECT_FALSE(peer.await_request(nullptr));  // the initiator asked to stop
    EXPECT_TRUE(peer.stop_requested());
  });
  auto link = eval::DxpLink::connect({"127.0.0.1", listener.port()}, 5000);
  link.send("CHello there");
  link.send("B001W");  // a take-back request: answered "not supported"
  eval::DxpPeer initiator(std::move(link), "initiator");
  dxp::GameRequest request;
  request.initiator_name = "initiator";
  request.minutes = 3;
  initiator.request_game(request);
  EXPECT_EQ(initiator.name(), "follower");
  initiator.send_move(dxp::MoveMessage{0, 32, 28, {}});
  const auto reply = initiator.await_turn(5000, nullptr);
  ASSERT_TRUE(reply && reply->move);
  EXPECT_EQ(reply->move->to, 23);
  initiator.end_game(dxp::EndReason::Draw, true);
  follower.join();
  ASSERT_FALSE(follower_notes.empty());
  EXPECT_THAT(follower_notes.front(), HasSubstr("says: Hello there"));
}

TEST(DxpPeer, ARefusedGameIsAnErrorNamingTheReason) {
  eval::DxpListener listener(eval::parse_endpoint("127.0.0.1:0", "--listen", true));
  std::thread follower([&] {
    auto link = listener.accept(nullptr);
    eval::DxpPeer peer(std::move(*link), "follower");
    if (peer.await_request(nullptr)) peer.answer_request(dxp::Acceptance::NotThisGame);
    peer.await_request(nullptr);  // until the initiator hangs up
  });
  {
    eval::DxpPeer initiator(eval::DxpLink::connect({"127.0.0.1", listener.port()}, 5000), "initiator");
    try {
      initiator.request_game(dxp::GameRequest{});
      ADD_FAILURE() << "a refused game was taken as accepted";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("refused the game: it will not play this game"));
    }
  }
  follower.join();
}

}  // namespace
}  // namespace dama
