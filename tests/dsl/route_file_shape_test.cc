// SPDX-License-Identifier: Apache-2.0
// What a route file's parser would take in silence or crash on is refused, at its place:
// a second YAML document, a key given twice, a key that is a collection, an alias bomb,
// nesting past the limit, a second XML root; errors on the from endpoint and a duplicate
// route id name their place; XML entities stay unexpanded.
#include <gmock/gmock.h>

#include <string>

#include <fmt/format.h>

#include <dromedary/dsl/route_loader.h>

#include "dsl/file_source.h"
#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

using ::testing::HasSubstr;

class RouteFileShapeTest : public RouteFileTest {
 protected:
  std::string yaml(const std::string& text) { return yamlError(text.c_str()); }
  std::string xml(const std::string& text) { return xmlError(text.c_str()); }
};

TEST_F(RouteFileShapeTest, ASecondYamlDocumentIsRefusedNotDropped) {
  EXPECT_EQ(yaml("- from:\n    uri: direct:a\n    steps: [{to: mock:a}]\n---\n"
                 "- from:\n    uri: direct:b\n    steps: [{to: mock:b}]\n"),
            "a second YAML document (after '---') at routes.yaml:4:1; a route file holds one "
            "list of routes: join the lists, or give each its own file");
  EXPECT_EQ(yaml("---\n# one document, begun and ended by its markers\n- from:\n"
                 "    uri: direct:a\n    steps: [{to: mock:a}]\n...\n"),
            "");
  EXPECT_THAT(yaml("- from:\n    uri: direct:a\n    steps: [{to: mock:a}]\n...\n"
                   "- from:\n    uri: direct:b\n    steps: [{to: mock:b}]\n"),
              HasSubstr("a second YAML document (after '---') at routes.yaml:5:1"));
}

TEST_F(RouteFileShapeTest, AKeyGivenTwiceIsRefusedNamingBoth) {
  EXPECT_EQ(yaml("- from:\n    uri: direct:a\n    uri: direct:c\n    steps: [{to: mock:a}]\n"),
            "duplicate key 'uri' at routes.yaml:3:5; it is given first at line 2");
}

// yaml-cpp reads a quote that is never closed to the end of the file: the rest of the route
// became the URI. Refused where the value starts; closed quotes with escapes load.
TEST_F(RouteFileShapeTest, AQuoteNeverClosedIsRefusedWhereItOpens) {
  EXPECT_EQ(yaml("- from:\n    uri: \"direct:a\n    steps:\n      - to: mock:b\n"),
            "a value opened with \" is never closed at routes.yaml:2:10; add the closing \"");
  EXPECT_EQ(yaml("- from:\n    uri: 'direct:a\n    steps: []\n"),
            "a value opened with ' is never closed at routes.yaml:2:10; add the closing '");
  EXPECT_EQ(yaml("- from:\n    uri: 'direct:a'\n    steps:\n      - log: \"a \\\"b\\\" c\"\n"
                 "      - log: 'it''s'\n"),
            "");
}

TEST_F(RouteFileShapeTest, AKeyThatIsACollectionIsRefused) {
  EXPECT_EQ(yaml("- from:\n    uri: direct:a\n    steps:\n      - ? [a, b]\n        : x\n"),
            "a key must be a plain value, not a list or map at routes.yaml:4:11");
}

// Nine levels of nine aliases: 387 million nodes from 600 bytes. Refused on counting, in
// far less time and memory than expanding it.
TEST_F(RouteFileShapeTest, AnAliasBombIsRefused) {
  std::string params = "      a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < 10; ++i) {
    std::string refs;
    for (int j = 0; j < 9; ++j) refs += fmt::format("{}*a{}", j == 0 ? "" : ", ", i - 1);
    params += fmt::format("      a{}: &a{} [{}]\n", i, i, refs);
  }
  EXPECT_THAT(yaml("- from:\n    uri: direct:a\n    parameters:\n" + params +
                   "    steps: [{to: mock:x}]\n"),
              HasSubstr("the file expands to more than 100000 nodes at routes.yaml:"));
}

std::string nestedFilters(int depth) {
  std::string steps;
  for (int i = 0; i < depth; ++i) steps += "[{filter: {simple: 'true', steps: ";
  steps += "[{to: mock:x}]";
  for (int i = 0; i < depth; ++i) steps += "}}]";
  return "- from:\n    uri: direct:a\n    steps: " + steps + "\n";
}

TEST_F(RouteFileShapeTest, YamlNestedPastTheLimitIsRefusedNotCrashed) {
  EXPECT_THAT(yaml(nestedFilters(150)),
              HasSubstr(fmt::format("collections nested deeper than {} levels at routes.yaml:3:",
                                    dsl::kMaxFileDepth)));
  EXPECT_THAT(yaml(nestedFilters(2000)), HasSubstr("YAML nested too deep for its parser"));
  EXPECT_EQ(yaml(nestedFilters(20)), "");
}

TEST_F(RouteFileShapeTest, XmlNestedPastTheLimitIsRefusedNotCrashed) {
  auto nested = [](int depth) {
    std::string text = "<routes><route><from uri=\"direct:a\"/>";
    for (int i = 0; i < depth; ++i) text += "<filter><simple>true</simple>";
    text += "<to uri=\"mock:x\"/>";
    for (int i = 0; i < depth; ++i) text += "</filter>";
    return text + "</route></routes>";
  };
  EXPECT_THAT(xml(nested(5000)),
              HasSubstr(fmt::format("elements nested deeper than {} levels at routes.xml:1:",
                                    dsl::kMaxFileDepth)));
  EXPECT_EQ(xml(nested(20)), "");
}

TEST_F(RouteFileShapeTest, ASecondXmlRootIsRefusedNotDropped) {
  EXPECT_EQ(xml("<routes><route><from uri=\"direct:a\"/><to uri=\"mock:a\"/></route></routes>\n"
                "<routes><route><from uri=\"direct:b\"/><to uri=\"mock:b\"/></route></routes>"),
            "a second root element <routes> at routes.xml:2:1; a route file has one root; put "
            "its routes in <routes>");
}

TEST_F(RouteFileShapeTest, AnUnknownOptionOnTheFromEndpointNamesItsPlaceInTheFile) {
  EXPECT_THAT(yaml("- from:\n    uri: direct:a?bogus=1\n    steps: [{to: mock:a}]\n"),
              HasSubstr("routes.yaml:2:10: unknown option 'bogus' for endpoint "
                        "'direct:a?bogus=1'"));
}

TEST_F(RouteFileShapeTest, AnUnknownComponentOnTheFromEndpointNamesItsPlaceInTheFile) {
  EXPECT_THAT(yaml("- from:\n    uri: nosuch:a\n    steps: [{to: mock:a}]\n"),
              HasSubstr("routes.yaml:2:10: unknown component 'nosuch'"));
}

TEST_F(RouteFileShapeTest, ARouteIdUsedTwiceNamesTheSecondPlace) {
  const std::string route = "- route:\n    id: x\n    from:\n      uri: direct:{}\n"
                            "      steps: [{{to: mock:a}}]\n";
  EXPECT_EQ(yaml(fmt::format(fmt::runtime(route), "a") + fmt::format(fmt::runtime(route), "b")),
            "routes.yaml:9:12: route id 'x' is used by more than one route");
}

TEST_F(RouteFileShapeTest, XmlEntitiesStayUnexpanded) {
  loadXml(R"(<?xml version="1.0"?>
<!DOCTYPE routes [<!ENTITY x "expanded">]>
<routes><route><from uri="direct:a"/><setBody><constant>&x;</constant></setBody>
<to uri="mock:x"/></route></routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "in"));
  EXPECT_EQ(bodies("mock:x"), std::vector<std::string>{"&x;"});
}

}  // namespace
}  // namespace dromedary::testing
