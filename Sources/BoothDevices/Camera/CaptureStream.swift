import BoothCore
import CV4L2
import Foundation

/// Memory-mapped streaming on a ``VideoDevice``: the driver fills a few buffers in turn; each
/// dequeued buffer is copied out and queued again at once, so the camera never waits for the
/// booth.
final class CaptureStream {
    /// One dequeued buffer, copied out of the driver's memory.
    struct Buffer {
        let bytes: Data
        /// The driver flagged the buffer as damaged (V4L2_BUF_FLAG_ERROR).
        let damaged: Bool
        /// When the frame was exposed, when the driver stamps buffers with the monotonic clock.
        let timestamp: MonotonicInstant?
        let sequence: UInt32
    }

    private let device: VideoDevice
    private var mappings: [(address: UnsafeMutableRawPointer, length: Int)] = []
    private var streaming = false

    /// Requests `count` buffers, maps them, queues them all and starts streaming.
    init(device: VideoDevice, count: Int = 4) throws(DeviceError) {
        self.device = device
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.control(cv4l2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
        guard request.count > 0 else {
            throw DeviceError.unsupported.detailed("\(device.path): the driver gave no capture buffers.")
        }
        do {
            for index in 0..<request.count {
                var buffer = Self.buffer(index: index)
                try device.control(cv4l2_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &buffer)
                let length = Int(buffer.length)
                mappings.append((try device.map(length: length, offset: buffer.m.offset), length))
                try device.control(cv4l2_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer)
            }
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            try device.control(cv4l2_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
            streaming = true
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    /// Stops streaming, unmaps the buffers and gives them back to the driver. Errors are
    /// ignored: the device may already be gone.
    private func release() {
        if streaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            try? device.control(cv4l2_VIDIOC_STREAMOFF, "VIDIOC_STREAMOFF", &type)
            streaming = false
        }
        for mapping in mappings { device.unmap(mapping.address, length: mapping.length) }
        mappings = []
        var request = v4l2_requestbuffers()
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try? device.control(cv4l2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
    }

    /// Dequeues the next filled buffer (the device must be readable), copies it and queues the
    /// buffer again. Returns `nil` when no buffer was ready after all (EAGAIN).
    func dequeue() throws(DeviceError) -> Buffer? {
        var buffer = Self.buffer(index: 0)
        do {
            try device.call(cv4l2_VIDIOC_DQBUF, &buffer)
        } catch  where error == .resourceTemporarilyUnavailable {
            return nil
        } catch {
            throw .systemCall("VIDIOC_DQBUF", on: device.path, errno: error)
        }
        let index = Int(buffer.index)
        guard mappings.indices.contains(index) else {
            throw DeviceError.unavailable.detailed("\(device.path): the driver returned unknown buffer \(index).")
        }
        let mapping = mappings[index]
        let bytes = Data(bytes: mapping.address, count: min(Int(buffer.bytesused), mapping.length))
        let monotonic = buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
        let nanoseconds = Int64(buffer.timestamp.tv_sec) * 1_000_000_000 + Int64(buffer.timestamp.tv_usec) * 1000
        let filled = Buffer(
            bytes: bytes, damaged: buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0,
            timestamp: monotonic && nanoseconds > 0 ? MonotonicInstant(nanoseconds: nanoseconds) : nil,
            sequence: buffer.sequence)
        try device.control(cv4l2_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer)
        return filled
    }

    private static func buffer(index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }
}
