// SPDX-License-Identifier: Apache-2.0
#pragma once

// Sending a message on a link with an encode buffer the caller keeps. proton::sender::send
// encodes every message into a new buffer that starts at 512 bytes and doubles until the
// message fits: a 1 KB message is encoded three times, a 12 KB one six, each attempt with a
// fresh allocation. Here the buffer is reused, so a message is encoded once when the buffer
// has grown to the sizes in use. Proton thread only.

#include <cstdint>
#include <vector>

#include <proton/binary.hpp>
#include <proton/message.hpp>
#include <proton/sender.hpp>

namespace dromedary::component::amqp {

/// Sends `message` as one delivery tagged `tag` (unique among the link's unsettled
/// deliveries), encoded into `buffer`; settles it at once when the link sends settled.
/// Throws proton::error when the message cannot be encoded.
void sendOnLink(const proton::sender& sender, const proton::message& message,
                const proton::binary& tag, std::vector<char>& buffer);

}  // namespace dromedary::component::amqp
