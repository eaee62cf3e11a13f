// SPDX-License-Identifier: Apache-2.0
// The consumer's body is the file, read when a step uses it (Camel's GenericFile body): a
// route that only moves a file never reads it into memory, and a body handed on to another
// route is still there to read after the file has moved.
#include <dromedary/core/file_body.h>
#include <gmock/gmock.h>

#include "file_test_support.h"
#include "support/log_capture.h"

namespace dromedary::testing {
namespace {

using FileBodyTest = FileTest;
using namespace std::chrono_literals;

TEST_F(FileBodyTest, TheBodyIsTheFileNotItsContent) {
  write("in/a.txt", "hello");
  std::string type;
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in"))
        .process([&](Exchange& ex) { type = ex.message().body().typeName(); })
        .to("mock:out");
  });
  harness.mock("mock:out").expectedBodiesReceived({Value("hello")});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(5s));
  EXPECT_EQ(type, "GenericFile");
}

TEST_F(FileBodyTest, AStepThatUsesTheBodyReadsTheFile) {
  write("in/a.txt", "hello");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in")).setBody(simple("${body.toUpperCase()} (${body.length()})")).to("mock:out");
  });
  harness.mock("mock:out").expectedBodiesReceived({Value("HELLO (5)")});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(5s));
}

TEST_F(FileBodyTest, AFileMovedByARouteIsCopiedInChunks) {
  std::string big(3 * 1024 * 1024 + 7, 'z');
  big[12345] = '\n';
  write("in/big.bin", big);
  harness.start([&](RouteBuilder& b) { b.from(uri("in")).to("file:" + dir + "/out"); });
  EXPECT_TRUE(eventually([&] { return exists("in/.camel/big.bin"); }));
  EXPECT_EQ(read("out/big.bin"), big);
}

TEST_F(FileBodyTest, AFileAppendedToAnotherIsCopiedToItsEnd) {
  write("in/a.txt", "second");
  write("out/all.txt", "first,");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in")).to("file:" + dir + "/out?fileName=all.txt&fileExist=Append");
  });
  EXPECT_TRUE(eventually([&] { return read("out/all.txt") == "first,second"; }));
}

TEST_F(FileBodyTest, ABodyHandedToSedaIsReadAfterTheFileHasMoved) {
  write("in/a.txt", "queued");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in")).to("seda:later");
    b.from("seda:later")
        .delay(constant(int64_t{200}))
        .setBody(simple("got ${body}"))
        .to("mock:out");
  });
  harness.mock("mock:out").expectedBodiesReceived({Value("got queued")});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(5s));
}

TEST_F(FileBodyTest, FilesAggregatedAfterTheyHaveMovedKeepTheirContent) {
  write("in/1.txt", "one");
  write("in/2.txt", "two");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "sortBy=file:name"))
        .aggregate(constant(true), AggregationStrategies::groupedBody())
        .completionSize(2)
        .to("mock:out");
  });
  harness.mock("mock:out").expectedBodiesReceived({Value(ValueList{Value("one"), Value("two")})});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(5s));
}

TEST_F(FileBodyTest, ALogShowsTheFileNotItsContentUnlessShowFiles) {
  write("in/a.txt", "secret content");
  LogCapture logs;
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in"))
        .to("log:plain?level=WARN")
        .to("log:files?level=WARN&showFiles=true")
        .to("mock:out");
  });
  harness.mock("mock:out").expectedMessageCount(1);
  ASSERT_TRUE(harness.mock("mock:out").assertIsSatisfied(5s));
  EXPECT_EQ(
      logs.find(LoggingLevel::Warn, "Body: [Body is file based: GenericFile[" + dir + "/in/a.txt]]")
          .size(),
      1u);
  EXPECT_EQ(logs.find(LoggingLevel::Warn, "BodyType: GenericFile, Body: secret content").size(),
            1u);
}

}  // namespace
}  // namespace dromedary::testing
