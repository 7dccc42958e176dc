export * from './iot';
export * from './iot-policy';
export * from './mqtt';
