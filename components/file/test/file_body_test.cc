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

TEST_F(FileBodyTest, ACharsetReadsTheFilesTextAsUtf8) {
  write("in/latin1.txt", "caf\xe9 cr\xe8me\nna\xefve");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "charset=ISO-8859-1")).split(tokenize("\n")).to("mock:out").end();
  });
  harness.mock("mock:out").expectedBodiesReceived(
      {Value("caf\xc3\xa9 cr\xc3\xa8me"), Value("na\xc3\xafve")});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(5s));
}

TEST_F(FileBodyTest, ACharsetWritesTheTextInIt) {
  harness.start([&](RouteBuilder& b) {
    b.from("direct:in").to("file:" + dir + "/out?fileName=${header.name}&charset=ISO-8859-1");
  });
  ASSERT_TRUE(harness.producer.sendBodyAndHeader("direct:in", Value("caf\xc3\xa9"), "name",
                                                 Value("ok.txt")));
  EXPECT_EQ(read("out/ok.txt"), "caf\xe9");
  // The euro sign is not in ISO-8859-1: the send fails and no file is made.
  auto failed = harness.producer.requestBodyAndHeader("direct:in", Value("5 \xe2\x82\xac"),
                                                      "name", Value("euro.txt"));
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().toString().find("cannot be written in ISO-8859-1"), std::string::npos)
      << failed.error().toString();
  EXPECT_FALSE(exists("out/euro.txt"));
}

TEST_F(FileBodyTest, BytesThatAreNotTextInTheCharsetFailNamingTheFileAndTheByte) {
  write("bad.txt", "fine\xff");
  harness.start([&](RouteBuilder& b) {
    b.from("direct:in").setBody(simple("read: ${body}")).to("mock:out");
  });
  auto failed = harness.producer.requestBody(
      "direct:in", Value::makeObject<FileBody>(path("bad.txt"), "US-ASCII"));
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().toString().find("cannot read the file '" + path("bad.txt") +
                                           "' as US-ASCII: bytes that are not text in it at "
                                           "byte 4"),
            std::string::npos)
      << failed.error().toString();
}

TEST_F(FileBodyTest, AnUnknownCharsetFailsTheStartNamingIt) {
  auto added = harness.context.addRoutes(
      [&](RouteBuilder& b) { b.from(uri("in", "charset=KLINGON-8")).to("mock:out"); });
  Result<void> started = added ? harness.context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().toString().find("charset 'KLINGON-8' is not one this system converts"),
            std::string::npos)
      << started.error().toString();
}

TEST(FileChunkReaderTest, ACharacterCutByAReadsEndComesWholeInTheNext) {
  const std::string path = ::testing::TempDir() + "/dromedary_utf16.txt";
  // "añ€x" in UTF-16LE with its byte order mark.
  const std::string utf16("\xff\xfe" "a\0" "\xf1\0" "\xac\x20" "x\0", 10);
  std::ofstream(path, std::ios::binary) << utf16;
  FileChunkReader reader(path, "UTF-16");
  std::string text;
  char buffer[8];
  while (size_t n = reader.read(buffer, sizeof buffer)) text.append(buffer, n);
  EXPECT_EQ(text, "a\xc3\xb1\xe2\x82\xac" "x");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace dromedary::testing
