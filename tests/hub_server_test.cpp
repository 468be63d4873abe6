// protocol/hub_server: the engine side of the Hub protocol driven in this
// process, from a stream of lines to a file, without the pipes and the
// program that hub_test.cpp's scripted conversations go through.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "error.hpp"
#include "hub_server.hpp"

namespace dama {
namespace {

using ::testing::HasSubstr;

// What serve_hub answers to `lines`.
std::string conversation(const std::string& lines, const std::vector<std::string>& params = {}) {
  std::istringstream in(lines);
  std::FILE* out = std::tmpfile();
  EXPECT_NE(out, nullptr);
  serve_hub(in, out, params);
  std::rewind(out);
  std::string text;
  for (int c; (c = std::fgetc(out)) != EOF;) text += static_cast<char>(c);
  std::fclose(out);
  return text;
}

TEST(HubServer, AnswersALineAtATimeUntilQuit) {
  const std::string answer = conversation(
      "hub\nset-param name=variant value=russian\ninit\nping\npos pos=nonsense\ngo think\nquit\nping\n");
  EXPECT_THAT(answer, HasSubstr("id name=dama"));
  EXPECT_THAT(answer, HasSubstr("param name=variant value=international"));  // announced before the set-param
  EXPECT_THAT(answer, HasSubstr("\nready\npong\nerror message="));
  EXPECT_THAT(answer, HasSubstr("go: no position"));  // the rejected pos left none
  EXPECT_EQ(answer.find("pong"), answer.rfind("pong"));  // nothing is read after quit
}

TEST(HubServer, PlaysALegalMoveForThePositionGiven) {
  const std::string answer = conversation(
      "set-param name=variant value=russian\ninit\npos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\nlevel depth=3\ngo think\n");
  EXPECT_THAT(answer, HasSubstr("info depth=3"));
  EXPECT_THAT(answer, HasSubstr("done move="));
}

TEST(HubServer, ABadParameterIsRefusedBeforeAnyLineIsRead) {
  EXPECT_THROW(conversation("hub\n", {"no-equals-sign"}), Error);
  EXPECT_THROW(conversation("hub\n", {"aspiration=perhaps"}), Error);
  EXPECT_THAT(conversation("hub\nquit\n", {"aspiration=false"}), HasSubstr("param name=aspiration value=false"));
}

}  // namespace
}  // namespace dama
