// SPDX-License-Identifier: Apache-2.0
// A YAML route file is read one top-level entry at a time (yaml_pieces.h) so that only one
// entry's nodes are in memory at once; what it reads, and where its errors point, is what
// reading the whole file gives.
#include "dsl/yaml/yaml_pieces.h"

#include <fmt/format.h>
#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "dsl/yaml/yaml_shape.h"
#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> texts(std::string_view text) {
  std::vector<std::string> out;
  for (const dsl::YamlPiece& p : dsl::splitTopLevelEntries(text)) {
    out.push_back(fmt::format("{}@{}", p.text, p.first_line));
  }
  return out;
}

TEST(YamlPiecesTest, AListAtTheFirstColumnIsCutBeforeEachEntry) {
  EXPECT_THAT(texts("# routes\n---\n- route:\n    id: a\n\n# b next\n- from:\n    uri: x\n"
                    "-\n  from: y\n"),
              ElementsAre("# routes\n---\n- route:\n    id: a\n\n# b next\n@0",
                          "- from:\n    uri: x\n@6", "-\n  from: y\n@8"));
}

TEST(YamlPiecesTest, OtherShapesStayWhole) {
  for (const char* text :
       {"kind: Kamelet\nspec: {}\n", "  - from: a\n  - from: b\n", "[{from: a}, {from: b}]\n",
        "%YAML 1.2\n---\n- from: a\n- from: b\n", "- from: a\n...\n- from: b\n",
        "- log: \"a\nb\"\n- from: b\n", "- from: a\n"}) {
    EXPECT_THAT(texts(text), ElementsAre(fmt::format("{}@0", text))) << text;
  }
}

class YamlPiecesFileTest : public RouteFileTest {};

TEST_F(YamlPiecesFileTest, AnErrorInALaterEntryNamesItsLineInTheFile) {
  EXPECT_THAT(yamlError("- from:\n    uri: direct:a\n    steps: [{to: mock:a}]\n"
                        "- from:\n    uri: direct:b\n    steps:\n      - nosuch: x\n"),
              HasSubstr("unknown step 'nosuch' at routes.yaml:7:9;"));
  EXPECT_EQ(yamlError("- from:\n    uri: direct:a\n    steps: [{to: mock:a}]\n"
                      "- from:\n    uri: direct:b\n    uri: direct:c\n"),
            "duplicate key 'uri' at routes.yaml:6:5; it is given first at line 5");
  EXPECT_EQ(yamlError("- from:\n    uri: direct:a\n    steps: [{to: mock:a}]\n"
                      "- from:\n    uri: direct:b\n    steps: [{to: mock:b}\n"),
            "invalid YAML: end of sequence flow not found at routes.yaml:7:1");
}

TEST_F(YamlPiecesFileTest, AQuoteNeverClosedBeforeTheNextEntryIsRefused) {
  EXPECT_EQ(yamlError("- from:\n    uri: direct:a\n    steps:\n      - log: \"never\n"
                      "- from:\n    uri: direct:b\n    steps: [{to: mock:b}]\n"),
            "a value opened with \" is never closed at routes.yaml:4:14; add the closing \"");
}

TEST_F(YamlPiecesFileTest, AnAliasToAnotherEntrysAnchorReadsAsInTheWholeFile) {
  loadYaml(
      "- from:\n    uri: direct:a\n    steps: &out [{to: mock:out}]\n"
      "- from:\n    uri: direct:b\n    steps: *out\n");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "1"));
  ASSERT_TRUE(h.producer.sendBody("direct:b", "2"));
  EXPECT_THAT(bodies("mock:out"), ElementsAre("1", "2"));
}

// The bound on nodes is the file's: each entry's walk takes from what the ones before it left.
TEST(YamlPiecesTest, TheAliasBoundCountsEveryEntry) {
  std::string text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < 5; ++i) {
    std::string refs;
    for (int j = 0; j < 9; ++j) refs += fmt::format("{}*a{}", j == 0 ? "" : ", ", i - 1);
    text += fmt::format("a{}: &a{} [{}]\n", i, i, refs);
  }
  const YAML::Node entry = YAML::Load(text);  // about 66,000 nodes from 300 bytes
  dsl::YamlNodeBudget budget(text);
  ASSERT_EQ(budget.total, 100000u);
  EXPECT_TRUE(dsl::checkYamlShape(entry, text, 0, "routes.yaml", budget));
  auto second = dsl::checkYamlShape(entry, text, 40, "routes.yaml", budget);
  ASSERT_FALSE(second);
  EXPECT_THAT(second.error().toString(),
              HasSubstr("the file expands to more than 100000 nodes at routes.yaml:4"));
}

}  // namespace
}  // namespace dromedary::testing
