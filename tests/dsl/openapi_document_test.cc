// SPDX-License-Identifier: Apache-2.0
// The pieces of contract-first REST below the routes: an OpenAPI document read into operations,
// the JSON syntax check of clientRequestValidation, and the mock files an include pattern finds.
#include "dsl/openapi/openapi_document.h"

#include <dromedary/engine/context.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "dsl/openapi/json_syntax.h"
#include "dsl/openapi/openapi_responders.h"

namespace dromedary::dsl {
namespace {

namespace fs = std::filesystem;

TEST(OpenApiDocumentTest, OperationsKeepWhatTheRoutesAndChecksNeed) {
  auto doc = readOpenApiDocument(R"(
openapi: 3.0.0
servers:
  - url: https://first.example/ignored
  - url: "{scheme}://api.example//{version}/"
    variables: {scheme: {default: https}, version: {default: v2}}
paths:
  /items/{id}:
    parameters:
      - {name: id, in: path, required: true}
      - {name: X-Trace, in: header, required: true}
    put:
      parameters:
        - {name: X-Trace, in: header, required: false}
        - {name: mode, in: query, required: true, schema: {$ref: "#/components/schemas/Mode"}}
      requestBody: {$ref: "#/components/requestBodies/Item"}
      responses:
        "200": {content: {application/json: {example: "{\"ok\": true}"}, text/plain: {}}}
        default: {content: {application/problem+json: {}}}
components:
  schemas:
    Mode: {type: string, enum: [fast, safe]}
  requestBodies:
    Item: {required: true, content: {application/xml: {}, application/json: {}}}
)",
                                 "items.yaml");
  ASSERT_TRUE(doc) << doc.error().toString();
  EXPECT_EQ(doc->basePath, "/v2");
  ASSERT_EQ(doc->operations.size(), 1u);
  const OpenApiOperation& op = doc->operations[0];
  EXPECT_EQ(op.method, "PUT");
  EXPECT_EQ(op.operationId, "GENOPID_PUT.items._id_");
  EXPECT_EQ(op.requiredQuery, std::vector<std::string>{"mode"});
  EXPECT_TRUE(op.requiredHeaders.empty());  // the operation's X-Trace replaces the path's
  ASSERT_EQ(op.allowedValues.size(), 1u);
  EXPECT_EQ(op.allowedValues[0].second, (std::vector<std::string>{"fast", "safe"}));
  EXPECT_TRUE(op.requiredBody);
  EXPECT_EQ(op.consumes, "application/json,application/xml");
  EXPECT_EQ(op.produces, "application/json,application/problem+json,text/plain");
  ASSERT_EQ(op.examples.size(), 1u);
  EXPECT_EQ(op.examples[0].second, R"({"ok": true})");
}

TEST(OpenApiDocumentTest, ReferencesInACircleAreRefused) {
  auto doc = readOpenApiDocument(R"(
openapi: 3.0.0
paths:
  /a: {$ref: "#/components/x"}
components: {x: {$ref: "#/components/y"}, y: {$ref: "#/components/x"}}
)",
                                 "loop.yaml");
  ASSERT_FALSE(doc);
  EXPECT_NE(doc.error().message.find("references in a circle"), std::string::npos);
}

TEST(JsonSyntaxTest, AcceptsJsonTextAndNothingElse) {
  for (const char* good :
       {"{}", " [1, 2.5, -0, 1e3, 2E-2] ", R"({"a": {"b": [true, false, null]}})",
        R"("\u00e9\n\"")", "0", "\"\""}) {
    EXPECT_TRUE(isJsonText(good)) << good;
  }
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "{a: 1}", "01", "1.", "-", "tru", "[1] 2",
                          "\"\\x\"", "\"a\nb\"", "'a'", "NaN", "{\"a\":1,}"}) {
    EXPECT_FALSE(isJsonText(bad)) << bad;
  }
  EXPECT_TRUE(isJsonText(std::string(1000, '[') + std::string(1000, ']')));
  EXPECT_FALSE(isJsonText(std::string(100000, '[') + std::string(100000, ']')));  // no overflow
}

TEST(MockFilesTest, AntPatternsPickTheFilesUnderTheirFolder) {
  fs::path dir = fs::temp_directory_path() / ("dromedary-mock-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "mocks" / "pet" / "deep");
  std::ofstream(dir / "mocks" / "pet" / "1.json") << "one";
  std::ofstream(dir / "mocks" / "pet" / "deep" / "2.xml") << "two";
  std::ofstream(dir / "mocks" / "top.json") << "top";
  Context context;
  context.properties().set("dromedary.classpath", dir.string());
  auto all = readMockFiles(context, "classpath:mocks/**");
  ASSERT_TRUE(all) << all.error().toString();
  ASSERT_EQ(all->size(), 3u);
  EXPECT_EQ((*all)[0].location, "mocks/pet/1");
  EXPECT_EQ((*all)[0].extension, "json");
  EXPECT_EQ((*all)[1].location, "mocks/pet/deep/2");
  EXPECT_EQ((*all)[2].text, "top");
  auto json_below = readMockFiles(context, "classpath:/mocks/pet/**/*.json, classpath:none/**");
  ASSERT_TRUE(json_below);
  ASSERT_EQ(json_below->size(), 1u);
  EXPECT_EQ((*json_below)[0].text, "one");
  auto one_level = readMockFiles(context, "file:" + (dir / "mocks").string() + "/*.json");
  ASSERT_TRUE(one_level);
  ASSERT_EQ(one_level->size(), 1u);
  EXPECT_EQ((*one_level)[0].text, "top");
  EXPECT_FALSE(readMockFiles(context, "mocks/**"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dromedary::dsl
