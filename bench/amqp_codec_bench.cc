// SPDX-License-Identifier: Apache-2.0
// The AMQP component's per-message conversion, without a broker: an exchange's message
// encoded as an AMQP message, put in AMQP's wire form and decoded into a message again, as a
// request travels from a producer route to a consumer route. 1 KB and 12 KB text bodies
// with two application headers. bench/instructions.sh amqp_codec_12k counts its
// instructions per message, a figure machine noise does not move.
#include <vector>

#include <proton/message.hpp>

#include <dromedary/core/exchange.h>

#include "message_codec.h"
#include "scenario.h"

namespace dromedary::bench {
namespace {

class CodecRoundTrip final : public ScenarioRun {
 public:
  explicit CodecRoundTrip(size_t size) {
    in_.setBody(std::string(size, 'x'));
    in_.setHeader("orderId", Value(int64_t{42}));
    in_.setHeader("region", Value("emea"));
    for (int i = 0; i < 100; ++i) once();
  }
  void once() override {
    std::string error;
    const HeaderFilterStrategy& filter = *component::amqp::amqpHeaderFilterStrategy();
    check(component::amqp::encodeMessage(in_, {}, filter, outgoing_, error), "encode");
    outgoing_.encode(wire_);
    incoming_.decode(wire_);
    component::amqp::decodeMessage(incoming_, filter, out_);
    check(out_.body().isString(), "decode");
  }

 private:
  Message in_, out_;
  proton::message outgoing_, incoming_;
  std::vector<char> wire_;
};

ScenarioRegistrar codec_1k("amqp_codec_1k",
                           [] { return std::unique_ptr<ScenarioRun>(new CodecRoundTrip(1024)); });
ScenarioRegistrar codec_12k("amqp_codec_12k", [] {
  return std::unique_ptr<ScenarioRun>(new CodecRoundTrip(12 * 1024));
});

}  // namespace
}  // namespace dromedary::bench
