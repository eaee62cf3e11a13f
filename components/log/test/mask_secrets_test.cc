// SPDX-License-Identifier: Apache-2.0
#include "exchange_formatter.h"

#include <gtest/gtest.h>

namespace dromedary::component::log {
namespace {

std::string masked(std::string line) {
  maskSecrets(line);
  return line;
}

TEST(MaskSecretsTest, KeyValueSecretsAreMasked) {
  EXPECT_EQ(masked("user=bob&password=hunter2&x=1"), "user=bob&password=xxxxxx&x=1");
  EXPECT_EQ(masked("{Passphrase=abc, secretKey=k1}"), "{Passphrase=xxxxxx, secretKey=xxxxxx}");
}

TEST(MaskSecretsTest, JsonSecretsAreMasked) {
  EXPECT_EQ(masked(R"({"user": "bob", "password": "p, w", "n": 1})"),
            R"({"user": "bob", "password": "xxxxxx", "n": 1})");
}

TEST(MaskSecretsTest, TextWithoutSecretsIsUnchanged) {
  EXPECT_EQ(masked("the password is long; passwords=[]"), "the password is long; passwords=[]");
}

}  // namespace
}  // namespace dromedary::component::log
