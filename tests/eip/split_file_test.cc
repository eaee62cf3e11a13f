// SPDX-License-Identifier: Apache-2.0
// split of a file body (FileBody, the file consumer's body): cut as the file is read, in
// chunks, into the same items as the same text in memory would give, whatever falls on a
// chunk's edge.
#include <dromedary/core/file_body.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "alloc_counter.h"
#include "eip/split_stream.h"
#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

class SplitFileTest : public ::testing::Test {
 protected:
  SplitFileTest()
      : path_((std::filesystem::temp_directory_path() /
               ("dromedary_split_" + std::to_string(::getpid()) + ".txt"))
                  .string()) {}
  ~SplitFileTest() override { std::filesystem::remove(path_); }

  Value fileWith(const std::string& text) {
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << text;
    return Value::makeObject<FileBody>(path_);
  }

  struct Item {
    std::string body;
    Value size;
    bool complete;
    bool operator==(const Item&) const = default;
  };

  // The items and their split properties, the body sent as it is.
  static std::vector<Item> split(const Tokenizer& t, bool streaming, const Value& body) {
    RouteHarness h;
    h.start([&](RouteBuilder& b) {
      auto& s = b.from("direct:in").split(t);
      if (streaming) s.streaming();
      s.to("mock:item").end();
    });
    EXPECT_TRUE(h.producer.sendBody("direct:in", body));
    std::vector<Item> out;
    for (const auto& ex : h.mock("mock:item").receivedExchanges()) {
      const Value* size = ex->getProperty("CamelSplitSize");
      out.push_back({ex->message().body().as<std::string>(), size ? *size : Value(),
                     ex->getProperty("CamelSplitComplete")->getBool()});
    }
    return out;
  }

  std::string path_;
};

// About 300 KB: several chunks, lines of every length, some far longer than a chunk.
std::string bigText(const std::string& separator) {
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    text += "line-" + std::to_string(i) + std::string(static_cast<size_t>(i % 97), 'x');
    if (i % 1000 == 500) text += std::string(100'000, 'y');  // longer than a chunk
    text += separator;
  }
  return text;
}

TEST_F(SplitFileTest, AFileIsCutIntoTheSameItemsAsItsTextInMemory) {
  struct Case {
    const char* name;
    Tokenizer tokenizer;
    std::string text;
  };
  Tokenizer grouped = tokenize("\n", false, 7);
  grouped.skipFirst = true;
  Tokenizer skipping = tokenize("\r\n");
  skipping.skipFirst = true;
  const std::vector<Case> cases = {
      {"lines", tokenize("\n"), bigText("\n")},
      {"lines, no trailing newline", tokenize("\n"), bigText("\n") + "last"},
      {"a two-byte token", skipping, bigText("\r\n")},
      {"a long token", tokenize("<<SEP>>"), bigText("<<SEP>>")},
      {"a regex", tokenize("\\s*;\\s*", true), bigText(" ;  ")},
      {"groups of 7 after a header", grouped, bigText("\n")},
      {"commas (no tokenize)", Tokenizer{}, "a,b,,c"},
      {"empty", tokenize("\n"), ""},
      {"only separators", tokenize("\n"), "\n\n\n"},
  };
  for (const Case& c : cases) {
    for (bool streaming : {false, true}) {
      SCOPED_TRACE(std::string(c.name) + (streaming ? ", streaming" : ""));
      auto expected = split(c.tokenizer, streaming, Value(c.text));
      auto got = split(c.tokenizer, streaming, fileWith(c.text));
      EXPECT_EQ(got.size(), expected.size());
      EXPECT_TRUE(got == expected);
      for (size_t i = 0; i < got.size() && i < expected.size(); ++i) {
        if (!(got[i] == expected[i])) {
          ADD_FAILURE() << "item " << i << ": '" << got[i].body.substr(0, 80) << "' "
                        << got[i].size.toString() << " " << got[i].complete << " against '"
                        << expected[i].body.substr(0, 80) << "' " << expected[i].size.toString()
                        << " " << expected[i].complete;
          break;
        }
      }
    }
  }
}

TEST_F(SplitFileTest, EveryChunkEdgeGivesTheSameTokens) {
  // Reads of 1 to 9 bytes put a chunk's edge inside every token and every delimiter.
  const std::string text = "alpha<>beta<><>gamma<<>>delta<>x<>";
  const std::vector<std::string> expected = {"alpha", "beta", "", "gamma<", ">delta", "x"};
  RE2 regex(" *; *");
  const std::string spaced = "a ;  b;c  ;d ; ";
  for (size_t chunk = 1; chunk < 10; ++chunk) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    fileWith(text);
    eip::FileTokenStream tokens(FileBody(path_), "<>", nullptr, 1, chunk);
    std::vector<std::string> got;
    while (auto t = tokens.next()) got.emplace_back(*t);
    EXPECT_EQ(got, expected);
    fileWith(spaced);
    eip::FileTokenStream cut(FileBody(path_), "", &regex, 2, chunk);
    got.clear();
    while (auto t = cut.next()) got.emplace_back(*t);
    EXPECT_EQ(got, (std::vector<std::string>{"a ;  b", "c  ;d"}));
  }
}

TEST_F(SplitFileTest, AMissingFileFailsTheExchangeNamingIt) {
  Value body = fileWith("a\nb");
  std::filesystem::remove(path_);
  RouteHarness h;
  h.start([](RouteBuilder& b) { b.from("direct:in").split(tokenize("\n")).to("mock:item").end(); });
  auto result = h.producer.requestBody("direct:in", body);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().toString().find(path_), std::string::npos) << result.error().toString();
  EXPECT_EQ(h.mock("mock:item").receivedCount(), 0u);
}

TEST_F(SplitFileTest, StreamingAFileOfAMillionLinesTakesNoMemoryPerLine) {
  std::string text;
  for (int i = 0; i < 1'000'000; ++i) text += "line " + std::to_string(i) + "\n";
  Value body = fileWith(text);
  text = {};
  RouteHarness h;
  std::atomic<int64_t> count{0};
  h.start([&](RouteBuilder& b) {
    b.from("direct:in")
        .split(tokenize("\n"))
        .streaming()
        .process([&](Exchange& ex) {
          if (ex.message().body().isString()) ++count;
        })
        .end();
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", Value("warm\nup")));
  count = 0;
  testing::AllocationScope scope;
  ASSERT_TRUE(h.producer.sendBody("direct:in", body));
  EXPECT_EQ(count.load(), 1'000'000);
  // The file is opened and its buffer made once; nothing per line or per chunk.
  EXPECT_LT(scope.allocations(), 50u);
}

}  // namespace
}  // namespace dromedary
