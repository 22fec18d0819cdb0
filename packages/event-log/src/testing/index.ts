export {
  type ContractFactory,
  type ContractFactoryOptions,
  type ContractFeatures,
  type ContractInstance,
  eventLogContract,
  waitFor,
} from './contract';
