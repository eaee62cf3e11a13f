// SPDX-License-Identifier: Apache-2.0
// The file producer against a real folder: names, what happens when the file exists, temporary
// names renamed into place, done files, and the jail.
#include <map>

#include <gmock/gmock.h>

#include "file_test_support.h"

namespace dromedary::testing {
namespace {

class FileProducerTest : public FileTest {
 protected:
  // Sends `body` (with `headers`) to the endpoint `to`; returns the send's error, or "".
  std::string send(const std::string& to, const std::string& body,
                   std::map<std::string, std::string> headers = {}) {
    if (!harness.context.isStarted()) {
      harness.start([](RouteBuilder& b) { b.from("direct:unused").to("mock:unused"); });
    }
    Headers h;
    for (const auto& [k, v] : headers) h.set(k, Value(v));
    auto r = ProducerTemplate(harness.context).sendBodyAndHeaders(to, Value(body), h);
    return r ? "" : r.error().message;
  }
};

TEST_F(FileProducerTest, WritesTheBodyUnderTheFileNameExpression) {
  EXPECT_EQ(send("file:" + dir + "/out?fileName=${header.id}.txt", "hello", {{"id", "42"}}), "");
  EXPECT_EQ(read("out/42.txt"), "hello");
}

TEST_F(FileProducerTest, WithoutAFileNameTheCamelFileNameHeaderNamesIt) {
  EXPECT_EQ(send("file:" + dir + "/out", "x", {{"CamelFileName", "sub/a.txt"}}), "");
  EXPECT_EQ(read("out/sub/a.txt"), "x");
}

TEST_F(FileProducerTest, FlattenDropsTheFolders) {
  EXPECT_EQ(send("file:" + dir + "/out?flatten=true", "x", {{"CamelFileName", "sub/a.txt"}}), "");
  EXPECT_EQ(read("out/a.txt"), "x");
}

TEST_F(FileProducerTest, FileExistDecidesWhatHappensToAnExistingFile) {
  write("out/a.txt", "old");
  const std::string base = "file:" + dir + "/out?fileName=a.txt";
  EXPECT_EQ(send(base + "&fileExist=Ignore", "new"), "");
  EXPECT_EQ(read("out/a.txt"), "old");
  EXPECT_EQ(send(base + "&fileExist=Append", "+more"), "");
  EXPECT_EQ(read("out/a.txt"), "old+more");
  EXPECT_THAT(send(base + "&fileExist=Fail", "new"), ::testing::HasSubstr("exists already"));
  EXPECT_EQ(read("out/a.txt"), "old+more");
  EXPECT_EQ(send(base + "&fileExist=Move&moveExisting=old/${file:name}.bak", "moved"), "");
  EXPECT_EQ(read("out/old/a.txt.bak"), "old+more");
  EXPECT_EQ(read("out/a.txt"), "moved");
  EXPECT_EQ(send(base, "over"), "");  // Override, the default
  EXPECT_EQ(read("out/a.txt"), "over");
}

TEST_F(FileProducerTest, ATempPrefixIsRenamedIntoPlace) {
  EXPECT_EQ(send("file:" + dir + "/out?fileName=a.txt&tempPrefix=.inprogress-", "x"), "");
  EXPECT_EQ(read("out/a.txt"), "x");
  EXPECT_FALSE(exists("out/.inprogress-a.txt"));
}

TEST_F(FileProducerTest, ADoneFileFollowsTheFile) {
  EXPECT_EQ(send("file:" + dir + "/out?fileName=data.csv&doneFileName=${file:name.noext}.done",
                 "d"),
            "");
  EXPECT_EQ(read("out/data.csv"), "d");
  EXPECT_TRUE(exists("out/data.done"));
}

TEST_F(FileProducerTest, AppendCharsAddsANewLine) {
  const std::string to = "file:" + dir + "/out?fileName=log.txt&fileExist=Append&appendChars=\\n";
  EXPECT_EQ(send(to, "one"), "");
  EXPECT_EQ(send(to, "two"), "");
  EXPECT_EQ(read("out/log.txt"), "one\ntwo\n");
}

TEST_F(FileProducerTest, AppendMakesAMissingFolderAndFileThenAddsToThem) {
  const std::string to = "file:" + dir + "/new/deeper?fileName=log.txt&fileExist=Append";
  EXPECT_EQ(send(to, "one"), "");
  EXPECT_EQ(send(to, "two"), "");
  EXPECT_EQ(read("new/deeper/log.txt"), "onetwo");
}

TEST_F(FileProducerTest, AppendWithATempPrefixAddsToAnExistingFileAndRenamesANewOne) {
  const std::string to =
      "file:" + dir + "/out?fileName=log.txt&fileExist=Append&tempPrefix=.part-";
  EXPECT_EQ(send(to, "one"), "");  // new: written under the temporary name, then renamed
  EXPECT_EQ(send(to, "two"), "");  // there: appended in place
  EXPECT_EQ(read("out/log.txt"), "onetwo");
  EXPECT_FALSE(exists("out/.part-log.txt"));
}

TEST_F(FileProducerTest, WithoutAutoCreateAMissingFolderFailsNamingTheFile) {
  std::string error = send("file:" + dir + "/absent?fileName=a.txt&autoCreate=false", "x");
  EXPECT_THAT(error, ::testing::HasSubstr(dir + "/absent/a.txt"));
  EXPECT_THAT(error, ::testing::HasSubstr("No such file or directory"));
  EXPECT_FALSE(exists("absent"));
}

TEST_F(FileProducerTest, AppendCharsFollowAnEmptyBody) {
  const std::string to = "file:" + dir + "/out?fileName=log.txt&fileExist=Append&appendChars=;";
  EXPECT_EQ(send(to, ""), "");
  EXPECT_EQ(send(to, "x"), "");
  EXPECT_EQ(read("out/log.txt"), ";x;");
}

TEST_F(FileProducerTest, AFileNameThatLeavesTheFolderIsRefusedNamingIt) {
  std::string error = send("file:" + dir + "/out", "x", {{"CamelFileName", "../escaped.txt"}});
  EXPECT_THAT(error, ::testing::HasSubstr("'../escaped.txt' leaves the folder"));
  EXPECT_FALSE(exists("escaped.txt"));
}

TEST_F(FileProducerTest, BadProducerOptionsAreRefusedNamingThem) {
  const std::string base = "file:" + dir + "/out?";
  EXPECT_THAT(send(base + "fileExist=Move", "x"),
              ::testing::HasSubstr("fileExist=Move needs moveExisting"));
  EXPECT_THAT(send(base + "fileExist=TryRename", "x"),
              ::testing::HasSubstr("fileExist=TryRename needs tempPrefix or tempFileName"));
  EXPECT_THAT(send(base + "chmod=rw-r--r--", "x"),
              ::testing::HasSubstr("chmod must be octal digits such as 644, not 'rw-r--r--'"));
  EXPECT_THAT(send(base + "chmod=777777777777777777777777", "x"),
              ::testing::HasSubstr("chmod must be octal digits such as 644, not '7777777"));
  EXPECT_THAT(send(base + "fileExist=Sometimes", "x"), ::testing::HasSubstr("fileExist"));
}

TEST_F(FileProducerTest, TryRenameFailsWhenTheTargetExists) {
  write("out/a.txt", "old");
  EXPECT_THAT(send("file:" + dir + "/out?fileName=a.txt&fileExist=TryRename&tempPrefix=tmp-", "new"),
              ::testing::HasSubstr("the target exists (fileExist=TryRename)"));
  EXPECT_EQ(read("out/a.txt"), "old");
}

TEST_F(FileProducerTest, CamelFileNameProducedIsTheWrittenFile) {
  harness.start([&](RouteBuilder& b) {
    b.from("direct:in").to("file:" + dir + "/out?fileName=p.txt").to("mock:out");
  });
  ASSERT_TRUE(ProducerTemplate(harness.context).sendBody("direct:in", Value("x")));
  harness.mock("mock:out").expectedMessageCount(1);
  ASSERT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_EQ(harness.mock("mock:out").receivedExchanges().at(0)->message().getHeader(
                "CamelFileNameProduced")->toString(),
            dir + "/out/p.txt");
}

TEST_F(FileProducerTest, FilesMovedFromOneFolderToAnotherThroughARoute) {
  write("in/a.txt", "A");
  write("in/sub/b.txt", "B");
  harness.start([&](RouteBuilder& b) {
    b.from("file:" + dir + "/in?initialDelay=0&delay=10&recursive=true&delete=true")
        .to("file:" + dir + "/out");
  });
  // The originals go once their exchanges completed, that is once the copies are written (the
  // producer writes in place here: a reader could see a copy before its content).
  EXPECT_TRUE(eventually([&] { return !exists("in/a.txt") && !exists("in/sub/b.txt"); }));
  EXPECT_EQ(read("out/a.txt"), "A");
  EXPECT_EQ(read("out/sub/b.txt"), "B");
}

}  // namespace
}  // namespace dromedary::testing
